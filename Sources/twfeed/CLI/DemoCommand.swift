import ArgumentParser
import Foundation
import Logging
import Synchronization
import TwfeedBase
import TwfeedCore
import TwfeedEmulator
import TwfeedKit
import TwfeedReader
import TwfeedSandbox
import TwfeedStore
import UnixSignals

/// Emulator plus daemon on loopback, end to end, with files in a fresh folder: what a
/// user runs before they have API keys.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the daemon against the local API emulator and show what it stored."
    )

    @Option(help: "The API dialect to speak: v2 or v1.1.", completion: .list(["v2", "v1.1"]))
    var dialect: String = "v2"

    @Option(help: "Tweets the emulator holds per feed at start.")
    var tweets: Int = 300

    @Option(help: "A folder for the demo's config, credentials, database and log (default: a new temporary folder).", completion: .directory)
    var dir: String?

    @Option(help: "Keep the daemon running this many seconds after the first polls.")
    var seconds: Double = 0

    @Flag(help: "Keep the emulator, the daemon and the web reader running until Ctrl-C, and print the reader's URL.")
    var serve = false

    @Option(help: ArgumentHelp("With --serve: where the reader listens (port 0: any free port).", valueName: "HOST:PORT"))
    var listen: String = "127.0.0.1:8765"

    /// Every command's `--config` and `--account`, which the demo refuses: it makes its own.
    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if global.config != nil || global.account != nil {
            throw ValidationError("demo makes its own config in --dir: --config and --account do not apply")
        }
        if serve {
            do {
                let address = try ListenAddress(parsing: listen)
                guard address.isLoopback else { throw ValidationError("--listen: the demo serves on loopback only, not \(listen)") }
            } catch let error as ListenAddress.ParseError {
                throw ValidationError("--listen: \"\(listen)\" \(error.reason)")
            }
        }
        guard dialect == "v2" || dialect == "v1.1" else { throw ValidationError("--dialect must be v2 or v1.1") }
        guard tweets >= 0 else { throw ValidationError("--tweets must not be negative") }
    }

    func run() async throws {
        // With --serve, Ctrl-C ends the demo gracefully: trapped before anything starts.
        let signals = serve ? await UnixSignalsSequence(trapping: [.sigint, .sigterm]) : nil
        try await CommandLineEdge.run {
            let folder = try dir ?? Sandbox.temporaryFolder(prefix: "twfeed-demo")
            let sandbox = try Sandbox(
                folder: folder,
                dialect: dialect,
                tweetsPerFeed: tweets,
                configure: { $0.newTweetIntervalSeconds = 5 },
                apiKeys: ["timeoutSeconds": .number("10")],
                config: Self.configKeys(folder: folder, listen: serve ? listen : nil)
            )
            defer { sandbox.stop() }
            let emulator = sandbox.emulator
            let configPath = sandbox.configPath

            emit("twfeed demo: emulator (\(dialect)) at \(emulator.baseURL), files in \(folder)")
            let config = try ConfigLoader.load(explicit: configPath)
            let logs = try LogSetup(config: config.log)
            let credentials = try Credentials.load(from: config.credentials)
            logs.redactor.register(credentials.secrets)
            let database = try AppDatabase.open(path: config.storage.database)
            let statusPath = StatusSnapshot.path(config: config)
            let reader = Mutex<ListenAddress?>(nil)
            let dependencies = Daemon.Dependencies(onReaderListening: { address in reader.withLock { $0 = address } })
            let daemon = try Daemon.build(
                config: config,
                credentials: credentials,
                database: database,
                dependencies: dependencies,
                statusPath: statusPath,
                gracefulShutdownSignals: [],
                logger: logs.logger
            )

            // The daemon's services poll at once on a fresh database. Once every feed
            // has completed a poll, queue a status as `twfeed post` does and watch the
            // outbox send it, then show what is stored while the daemon still runs.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await daemon.run() }
                let giveUp = Date().addingTimeInterval(60)
                func waitFor(_ condition: () throws -> Bool) async throws {
                    while try !condition() && Date() < giveUp { try await Task.sleep(for: .milliseconds(50)) }
                }
                try await waitFor { try config.enabledFeeds.allSatisfy { try database.syncState($0).lastSuccessAt != nil } }

                let text = "Hello from the twfeed demo, \(Timestamp.iso8601(Date()))"
                let queued = try database.enqueue(text: try validated(text), replyTo: nil, now: Date())
                daemon.doorbell.ring()
                try await waitFor { try database.outboxItem(queued.id)?.state == .sent }
                if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }

                for feed in config.enabledFeeds {
                    let stats = try database.feedStats(feed)
                    emit("\n== \(feed.rawValue): \(stats.tweets) tweets stored; the newest 3:")
                    for item in try database.feedItems(feed, limit: 3) {
                        emit(FeedPresenter.text(item))
                    }
                }
                emit("\n== outbox (twfeed outbox list)")
                for item in try database.outboxItems() {
                    emit("#\(item.id)  \(item.state.rawValue)  \(item.sentTweetID.map { "tweet \($0)" } ?? "")  \(item.text)")
                }
                emit("\n== status (twfeed status)")
                let report = try StatusReport.collect(config: config, statusPath: statusPath)
                emit(StatusPresenter.table(report))
                // What the run cost, as the emulator billed it at the published rates.
                emit("\n== usage (twfeed usage)")
                emit(try UsageReport.read(config: config, database: database.reader, now: Date(), days: 1).table)
                if let signals {
                    try await waitFor { reader.withLock { $0 } != nil }
                    guard let address = reader.withLock({ $0 }) else {
                        throw TwfeedError(.unavailable, "the reader did not start on \(listen) (see \(folder)/twfeed.log)")
                    }
                    // Signed in by the link, as `twfeed open` prints it.
                    let secret = try ReaderSecret.loadOrCreate(path: ReaderSecret.path(config: config))
                    emit("\nreader: http://\(address)/login?token=\(ReaderKeys(secret: secret).loginToken(now: Date()))")
                    emit("(the link signs one browser in, once; another: twfeed open --config \(configPath) --listen \(address))")
                    emit("emulator: \(emulator.baseURL)")
                    emit("The emulator adds a tweet every 5 seconds; the daemon polls every 15. Press Ctrl-C to stop.")
                    for await _ in signals { break }
                    await daemon.triggerGracefulShutdown()
                    try await group.next()
                }
                group.cancelAll()
            }
            emit("\nThe demo's files stay in \(folder). Read them offline with:")
            emit("  twfeed feed home --config \(configPath)")
            if !serve { emit("See them in a browser, with the daemon still polling: twfeed demo --serve") }
        }
    }

    private func validated(_ text: String) throws -> String {
        _ = try PostValidator.validate(text)
        return text
    }

    /// What the demo adds to the sandbox's config: quick polls, loopback avatars, a log file.
    private static func configKeys(folder: String, listen: String?) -> [String: JSONValue] {
        var keys: [String: JSONValue] = [
            "feeds": .object([
                "home": .object(["intervalSeconds": .number("15")]),
                "mentions": .object(["intervalSeconds": .number("15")]),
                "retweets": .object(["intervalSeconds": .number("30")]),
            ]),
            "images": .object(["allowInsecureLoopback": .bool(true), "allowedHosts": .array([.string("127.0.0.1")])]),
            "log": .object(["file": .string("\(folder)/twfeed.log")]),
        ]
        if let listen { keys["http"] = .object(["listen": .string(listen)]) }
        return keys
    }
}
