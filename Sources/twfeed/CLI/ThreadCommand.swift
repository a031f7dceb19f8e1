import ArgumentParser
import Foundation
import TwfeedBase
import TwfeedBilling
import TwfeedCore
import TwfeedKit
import TwfeedStore

struct ThreadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thread",
        abstract: "Check a thread written in one go and queue it whole; part N+1 answers part N.",
        discussion: """
            The parts are separated by lines that are exactly ---; blank parts at either end are dropped and the \
            rest count from 1. Each part is checked like a post: exit 65 naming the part at fault, nothing queued. \
            --photo 2:map.png=A map attaches a photo to part 2.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The file with the thread's text, or - to read it from standard input.", completion: .file())
    var file: String

    @Option(
        name: .customLong("photo"),
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp("A photo for part N (up to 4 a part), with its alt text after =.", valueName: "N:FILE[=ALT]"),
        completion: .file()
    )
    var photos: [String] = []

    @Option(
        name: .customLong("at"),
        parsing: .unconditional,
        help: ArgumentHelp("The first part is not sent before this time: ISO 8601 with an offset.", valueName: "TIME")
    )
    var at: String?

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        try DraftChecks.asUsage {
            let parsed = try photos.map { try ThreadPhotoArgument($0) }
            for (part, photos) in Dictionary(grouping: parsed, by: \.part).sorted(by: { $0.key < $1.key }) {
                try PhotoValidator.checkCount(photos.count, where: "part \(part): ")
            }
            if let at { _ = try SendTime.parse(at) }
        }
    }

    func run() async throws {
        try await CommandLineEdge.run {
            let parts = ThreadText.parts(of: try readText())
            let photoArguments = try photos.map { try ThreadPhotoArgument($0) }
            if let beyond = photoArguments.first(where: { $0.part > parts.count }) {
                throw ValidationError("--photo \(beyond.part):\(beyond.photo.path): the thread has \(parts.count) part\(parts.count == 1 ? "" : "s")")
            }
            try ThreadText.validate(parts)
            let config = try options.loadConfig()
            try DraftChecks.asUsage { try DraftChecks.requirePhotoDialect(config, photos: photoArguments.count) }
            let now = Date()
            let notBefore = try DraftChecks.sendTime(at, config: config, now: now)
            var drafts: [StatusDraft] = []
            for (index, text) in parts.enumerated() {
                let mine = photoArguments.filter { $0.part == index + 1 }.map(\.photo)
                let photos = try DraftChecks.photos(mine, prefix: "part \(index + 1): ")
                // Every part carries --at, as the reader's compose gives it: a later part waits
                // for its parent anyway, but its expiry must count from --at too, not from now.
                drafts.append(StatusDraft(text: text, photos: photos, notBefore: notBefore))
            }
            // FULL sync: once this command returns, the thread survives a power loss.
            let database = try AppDatabase.open(path: config.storage.database, durable: true)
            let items = try await database.enqueueThread(drafts, now: now)
            let woke = WakeSocket.send(to: WakeSocket.path(config: config))
            // Each part after the first answers the account's own post: never a summoned reply.
            let terms = BillingTerms(config.api)
            let cost = parts.reduce(MicroUSD.zero) { $0 + PostPricing(text: $1, summoned: false, prices: terms.prices).price }
            let photoCount = items.reduce(0) { $0 + $1.photos.count }
            if json {
                emit(
                    JSONValue.object([
                        "id": .string(String(items[0].id)),
                        "parts": .array(items.map { .object(["id": .string(String($0.id)), "state": .string($0.state.rawValue)]) }),
                        "costUSD": .number(cost.decimalString),
                        "mediaCostUSD": .null,
                        "photos": .number(String(photoCount)),
                        "notBefore": items[0].notBefore.map { .string(Timestamp.iso8601($0)) } ?? .null,
                    ]).serialized
                )
            } else {
                let ids = items.map { "#\($0.id)" }.joined(separator: ", ")
                emit(
                    "queued a thread of \(items.count) part\(items.count == 1 ? "" : "s") (\(ids); "
                        + "\(DraftChecks.whenNote(items[0].notBefore, now: now, woke: woke))); "
                        + "it will cost \(cost.formatted)\(DraftChecks.photoNote(photoCount))"
                        + (config.api.billsRealMoney ? "" : " (\(TwfeedConfig.API.playMoneyNote))")
                )
            }
        }
    }

    /// The file's text, or standard input's for `-`; not UTF-8 or unreadable is 65.
    private func readText() throws -> String {
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = try WholeFile.read(file, what: "thread file", code: .invalidData)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TwfeedError(.invalidData, "\(file == "-" ? "standard input" : file): not UTF-8 text")
        }
        return text
    }
}
