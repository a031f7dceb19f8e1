import ArgumentParser
import Dispatch
import Foundation
import TwfeedEmulator
import TwfeedEmulatorArchive

#if canImport(Glibc)
import Glibc
#endif

/// `twfeed-emulator`: runs the local X API emulator until SIGINT or SIGTERM.
///
/// Prints exactly one line on stdout, the base URL, once it is serving (so a script can
/// read the port it picked with `--port 0`); anything else goes to stderr.
@main
struct EmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "twfeed-emulator",
        abstract: "A local X API emulator (v2 and v1.1) for trying and testing twfeed without API keys.",
        discussion: """
            Accepts the demo credentials (see --write-credentials), verifies OAuth 1.0a \
            signatures, keeps the real rate limits, serves seeded timelines, takes posts, photo \
            uploads (POST /2/media/upload, /2/media/metadata) and deletions (DELETE /2/tweets/:id, \
            v1.1 statuses/destroy), and bills as the pay-per-use API does (GET /_emulator/bill). \
            Control routes under /_emulator/ add tweets, inject faults, change the billing \
            settings and report stats and what was posted (GET /_emulator/posted).
            """
    )

    @Option(help: "Address to listen on: 127.0.0.1, ::1 or localhost (others need --allow-any-host).")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "Tweets seeded in each feed.")
    var tweets = 200

    @Option(help: "Length of a rate-limit window in seconds.")
    var windowSeconds = 900

    @Option(help: "Add a tweet to home and mentions every SECONDS.")
    var newTweetEvery: Double?

    @Option(help: "Seed of the generated data (same seed, same tweets).")
    var seed: UInt64 = 1

    @Option(help: "How v2 reposts_of_me orders its list, undocumented by the API: post-id (as v1.1) or last-repost.")
    var repostsOrder: String = EmulatorRepostsOrder.byPostID.rawValue

    @Option(help: "Seconds a repeated status text is refused as a duplicate (0: no duplicate check).")
    var duplicateWindow: Double = 86_400

    /// Unconditional, so that `--clock-skew -120` reads the negative number as the value.
    @Option(parsing: .unconditional, help: "Seconds the emulator's clock runs ahead of this machine's (negative: behind).")
    var clockSkew: Double = 0

    @Option(help: "Seconds an uploaded photo's media id stays usable (expires_after_secs).")
    var mediaExpiry = 86_400

    @Option(help: "Prepaid API credits in US dollars (default: unlimited); at 0, every API request answers 402.")
    var credits: Double?

    @Option(help: "Billing cycle spend cap in US dollars (default: none); once spent, API requests answer 403 until the next cycle.")
    var spendCap: Double?

    @Option(help: "Post reads a billing cycle may charge before reads answer 429 (0: no cap).")
    var usageCap = 3_000_000

    @Option(help: "Day of the month (1-28) a billing cycle starts on, at 00:00 UTC.")
    var cycleStartDay = 1

    @Option(help: "How billing refusals are worded: dialect (each dialect's own), problem, errors, empty or html.")
    var refusalShape = EmulatorRefusalShape.dialect.rawValue

    @Flag(help: "Refuse a reply unless the post it answers mentioned or quoted the account, as for self-serve accounts.")
    var repliesRequireSummons = false

    @Flag(inversion: .prefixedNo, help: "Whether the account owns the developer app (its own mentions and posts cost the owned read price).")
    var ownsApp = true

    @Option(
        help:
            "The names v2 answers give a post's fields: tweet (referenced_tweets, note_tweet, …) or post (referenced_posts, note_post, …, as X's OpenAPI document of August 2026)."
    )
    var vocabulary: EmulatorVocabulary = .tweet

    @Option(help: "Write the demo credentials as twfeed's credentials file (mode 0600) to FILE.", completion: .file())
    var writeCredentials: String?

    @Option(
        help: "Write the archive X would send the signed-in user (its posts, notes, photos, likes) to PATH (.zip or a folder), then exit.",
        completion: .file()
    )
    var writeArchive: String?

    @Flag(help: "Allow listening on an address other than loopback (the control routes are unauthenticated).")
    var allowAnyHost = false

    func validate() throws {
        if !allowAnyHost, !["127.0.0.1", "::1", "localhost"].contains(host) {
            throw ValidationError("refusing to listen on \(host): use 127.0.0.1, ::1 or localhost, or pass --allow-any-host")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        guard tweets >= 0 else { throw ValidationError("--tweets must not be negative") }
        guard windowSeconds >= 1 else { throw ValidationError("--window-seconds must be at least 1") }
        if let newTweetEvery, !(newTweetEvery > 0) { throw ValidationError("--new-tweet-every must be positive") }
        guard duplicateWindow.isFinite, duplicateWindow >= 0 else {
            throw ValidationError("--duplicate-window must be 0 or more seconds")
        }
        guard clockSkew.isFinite, abs(clockSkew) <= 1e9 else {
            throw ValidationError("--clock-skew must be within ±1000000000 seconds")
        }
        if let credits, !(credits.isFinite && credits >= 0) { throw ValidationError("--credits must be 0 or more dollars") }
        if let spendCap, !(spendCap.isFinite && spendCap >= 0) {
            throw ValidationError("--spend-cap must be 0 or more dollars")
        }
        guard mediaExpiry >= 0 else { throw ValidationError("--media-expiry must be 0 or more seconds") }
        guard usageCap >= 0 else { throw ValidationError("--usage-cap must not be negative") }
        guard (1...28).contains(cycleStartDay) else { throw ValidationError("--cycle-start-day must be 1...28") }
        guard EmulatorRefusalShape(rawValue: refusalShape) != nil else {
            throw ValidationError("--refusal-shape must be one of \(EmulatorRefusalShape.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        var settings = EmulatorConfiguration()
        settings.host = host
        settings.port = port
        settings.tweetsPerFeed = tweets
        settings.rateLimitWindowSeconds = windowSeconds
        settings.newTweetIntervalSeconds = newTweetEvery
        settings.seed = seed
        guard let order = EmulatorRepostsOrder(rawValue: repostsOrder) else {
            throw ValidationError("--reposts-order: \(repostsOrder) is not post-id or last-repost")
        }
        settings.repostsOrder = order
        settings.duplicateWindowSeconds = duplicateWindow
        settings.clockSkewSeconds = clockSkew
        settings.mediaExpirySeconds = mediaExpiry
        settings.billing.creditsUSD = credits
        settings.billing.spendCapUSD = spendCap
        settings.billing.usageCapPostReads = usageCap == 0 ? nil : usageCap
        settings.billing.cycleStartDay = cycleStartDay
        settings.billing.repliesRequireSummons = repliesRequireSummons
        settings.billing.ownsApp = ownsApp
        settings.vocabulary = vocabulary
        settings.billing.refusalShape = EmulatorRefusalShape(rawValue: refusalShape) ?? .dialect
        let emulator = Emulator(configuration: settings)
        if let path = writeArchive {
            do {
                let written = try ArchiveExport.write(emulator, to: path)
                printError("twfeed-emulator: wrote \(path): \(written.posts) posts, \(written.likes) likes, \(written.photos) photos")
                return
            } catch {
                printError("twfeed-emulator: cannot write the archive: \(error)")
                throw ExitCode(73)
            }
        }
        do {
            try emulator.start()
        } catch {
            printError("twfeed-emulator: \(error)")
            throw ExitCode(69)
        }
        if let path = writeCredentials {
            do {
                try Self.writeCredentials(settings.credentials, to: path)
            } catch {
                emulator.stop()
                printError("twfeed-emulator: cannot write credentials to \(path): \(error)")
                throw ExitCode(74)
            }
        }
        // Written straight to the file descriptor: `print` buffers when stdout is a pipe.
        FileHandle.standardOutput.write(Data((emulator.baseURL + "\n").utf8))
        printError(
            "twfeed-emulator: serving v2 at \(emulator.baseURL)/2/, v1.1 at \(emulator.baseURL)/1.1/; "
                + "consumer key \(settings.credentials.consumerKey); Ctrl-C stops"
        )

        let signal = await Self.waitForTermination()
        printError("twfeed-emulator: \(signal), stopping")
        emulator.stop()
    }

    /// Writes the credentials file with mode 0600 from the start (twfeed refuses one that
    /// others can read), replacing any file there.
    static func writeCredentials(_ credentials: EmulatorCredentials, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(credentials) + Data("\n".utf8)
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        _ = fchmod(fd, 0o600)
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == data.count, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    /// Resumes on SIGINT or SIGTERM with the signal's name.
    static func waitForTermination() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let resumed = SignalLatch(continuation)
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { resumed.resume(name) }
                source.resume()
                resumed.keep(source)
            }
        }
    }
}

extension EmulatorVocabulary: ExpressibleByArgument {}

/// Resumes the continuation once, and keeps the signal sources alive until then.
private final class SignalLatch: @unchecked Sendable {
    // @unchecked: every field is only touched with `lock` held.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<String, Never>?
    private var sources: [any DispatchSourceSignal] = []

    init(_ continuation: CheckedContinuation<String, Never>) { self.continuation = continuation }

    func keep(_ source: any DispatchSourceSignal) {
        lock.lock()
        sources.append(source)
        lock.unlock()
    }

    func resume(_ name: String) {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume(returning: name)
    }
}

private func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
