import ArgumentParser
import Foundation
import TwfeedBase
import TwfeedCore

/// What `post` and `thread` check alike before anything is queued: the photos' count and
/// the dialect (64), the time to send (64 malformed, 65 too late), each photo (65).
enum DraftChecks {
    /// Runs a check that needs no config inside a command's `validate()`: a usage error
    /// (64) becomes ArgumentParser's, printed as one line with "(see twfeed --help)".
    static func asUsage(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as TwfeedError where error.code == .usage {
            throw ValidationError(error.message)
        }
    }

    /// v1.1's media upload is retired: photos need the v2 dialect (64, naming the key).
    static func requirePhotoDialect(_ config: TwfeedConfig, photos: Int) throws {
        guard photos > 0, let why = config.api.photoRefusal else { return }
        throw TwfeedError(.usage, "--photo: \(why)")
    }

    /// `--at`, read and checked against the expiry; nil without `--at`.
    static func sendTime(_ text: String?, config: TwfeedConfig, now: Date) throws -> Date? {
        guard let text else { return nil }
        let date = try SendTime.parse(text)
        try SendTime.check(date, text: text, now: now, maxAgeHours: config.outbox.maxAgeHours)
        return date
    }

    /// The photos read and checked, in the order given; `prefix` names a thread's part.
    static func photos(_ arguments: [PhotoArgument], prefix: String = "") throws -> [PhotoDraft] {
        try arguments.map { argument in
            do {
                return try argument.load()
            } catch let error as TwfeedError {
                throw TwfeedError(error.code, prefix + error.message)
            }
        }
    }

    /// When a queued status goes: at its time to send when that is ahead, else as soon as
    /// the daemon can (`woke`: a running daemon was told).
    static func whenNote(_ notBefore: Date?, now: Date, woke: Bool) -> String {
        if let notBefore, notBefore > now {
            return "it goes out at \(Timestamp.iso8601(notBefore))" + (woke ? "" : "; the daemon is not running")
        }
        return woke ? "the daemon is sending it" : "the daemon is not running; it goes out when it runs"
    }

    /// What the text output says of the photos' price: X does not publish it.
    static func photoNote(_ count: Int) -> String {
        count == 0 ? "" : " plus \(count == 1 ? "the photo's upload" : "the \(count) photos' uploads") (price not published)"
    }
}
