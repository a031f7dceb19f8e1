import Foundation
import TwfeedArchive
import TwfeedBase
import TwfeedCore
import TwfeedKit
import TwfeedReader
import TwfeedStatus
import TwfeedStore

/// The commands `twfeed demo` prints for pasting: this binary as the user can type it
/// (`CommandPath`), with the demo's config.
struct Hints: Sendable {
    /// `.build/release/twfeed` before installation, `twfeed` after.
    let command: String
    let configPath: String

    /// `<command> <arguments> --config <the demo's config>`.
    func command(_ arguments: String) -> String {
        "\(command) \(arguments) --config \(CommandPath.shellQuoted(configPath))"
    }
}

/// What `twfeed demo` shows while its daemon runs: it waits for every feed's first poll,
/// queues a thread of two parts as `twfeed thread` does (the store, then the wake
/// socket), the first with a photo, and watches them go out, then prints what the
/// commands would print, each headed by the command.
struct DemoTour: Sendable {
    let launch: DaemonSupervisor.Launch
    let hints: Hints
    let emulatorURL: String
    /// Writes the archive X would send the emulator's user (`--write-archive`) to a path.
    let writeArchive: @Sendable (String) throws -> Void
    let seconds: Double
    /// `--listen` with `--serve`, else nil.
    let serve: String?
    /// The reader's bound address, once it listens.
    let reader: @Sendable () -> ListenAddress?

    func run() async throws {
        let config = launch.config
        let database = launch.inputs.database
        let giveUp = Date().addingTimeInterval(60)
        func waitFor(_ condition: () async throws -> Bool) async throws {
            while try await !condition() && Date() < giveUp { try await Task.sleep(for: .milliseconds(50)) }
        }
        try await waitFor {
            for feed in config.enabledFeeds where try await database.syncState(feed).lastSuccessAt == nil { return false }
            return true
        }

        // A thread of two parts, as `twfeed thread` queues it: the first with a photo and
        // its description where the dialect can upload one (v2), the second replying to it.
        let text = "Hello from the twfeed demo, \(Timestamp.iso8601(Date()))"
        let photos =
            config.api.dialect == .v2
            ? [PhotoDraft(fileName: "demo.png", type: try PhotoValidator.check(Self.photo, alt: Self.alt), bytes: Self.photo, alt: Self.alt)]
            : []
        let parts = [StatusDraft(text: text, photos: photos), StatusDraft(text: "…and a second part, a reply to the first")]
        for part in parts { _ = try PostValidator.validate(part.text) }
        let queued = try await database.enqueueThread(parts, now: Date())
        _ = WakeSocket.send(to: WakeSocket.path(config: config))
        try await waitFor { try await database.outboxItem(queued[queued.count - 1].id)?.state == .sent }
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }

        for feed in config.enabledFeeds {
            let stats = try await database.feedStats(feed)
            emit("\n== \(feed.rawValue): \(stats.tweets) tweets stored; the newest 3 (\(hints.command("feed \(feed.rawValue) --limit 3"))):")
            for item in try await database.feedItems(feed, limit: 3) {
                emit(FeedPresenter.text(item))
            }
        }
        try await importArchive(config: config, database: database)
        emit("\n== outbox (\(hints.command("outbox")))")
        for item in try await database.outboxItems() {
            let part = item.thread.map { "part \($0.part)/\($0.parts)  " } ?? ""
            let photos = item.photos.map { "  [photo \($0.fileName): \($0.alt ?? "no description")]" }.joined()
            emit("#\(item.id)  \(item.state.rawValue)  \(part)\(item.sentTweetID.map { "tweet \($0)" } ?? "")  \(item.text)\(photos)")
        }
        emit("\n== status (\(hints.command("status")))")
        let report = try await StatusReport.collect(config: config, statusPath: StatusSnapshot.path(config: config))
        emit(StatusPresenter.table(report))
        // What the run cost, as the emulator billed it at the published rates: play money.
        emit("\n== usage (\(hints.command("usage"))): the emulator's bill at the published rates, not real money")
        emit(try await UsageReport.read(config: config, database: database.reader, now: Date(), days: 1).table)
        if let listen = serve { try await serveHints(listen: listen, config: config, database: database) }
    }

    /// Your history: the archive X would send the emulator's user, imported as `twfeed
    /// import` does (beside the running daemon), then its newest posts.
    private func importArchive(config: TwfeedConfig, database: AppDatabase) async throws {
        let path = (config.storage.database as NSString).deletingLastPathComponent + "/twitter-archive.zip"
        try writeArchive(path)
        let importer = ArchiveImporter(
            database: database,
            images: ImageStore(root: config.storage.imageCache),
            clock: SystemClock(),
            logger: launch.inputs.logs.logger
        )
        let summary = try await importer.run(try ArchiveOpener.open(path: path), dryRun: false)
        emit("\n== your archive (\(hints.command("import \(CommandPath.shellQuoted(path))"))):")
        for line in summary.lines { emit("  " + line) }
        emit("the newest 3 of posts (\(hints.command("feed posts --limit 3"))):")
        for item in try await database.feedItems(.posts, limit: 3) { emit(FeedPresenter.text(item)) }
    }

    /// With --serve: the reader's sign-in link, and the commands to try on the running
    /// daemon from another terminal.
    private func serveHints(listen: String, config: TwfeedConfig, database: AppDatabase) async throws {
        let giveUp = Date().addingTimeInterval(60)
        while reader() == nil && Date() < giveUp { try await Task.sleep(for: .milliseconds(50)) }
        guard let address = reader() else {
            throw TwfeedError(.unavailable, "the reader did not start on \(listen) (see \(config.log.file ?? "the log"))")
        }
        // Signed in by the link, as `twfeed open` prints it.
        let secret = try ReaderSecret.loadOrCreate(path: ReaderSecret.path(config: config))
        emit("\nreader: http://\(address)/login?token=\(ReaderKeys(secret: secret).loginToken(now: Date()))")
        emit("(the link signs one browser in, once; another: \(hints.command("open")) --listen \(address))")
        emit("emulator: \(emulatorURL)")
        emit("\nThe daemon runs as twfeed run would: try, in another terminal,")
        emit("  " + hints.command("status"))
        emit("  " + hints.command("post \"hello\""))
        // No `fetch` hint: what the stored posts lack, the daemon has already asked for.
        if let newest = try await database.feedItems(.home, limit: 1).first {
            emit("  " + hints.command("show \(newest.tweet.id)"))
        }
        emit("The emulator adds a tweet every 5 seconds; the daemon polls every 15. Press Ctrl-C to stop.")
    }
}

extension DemoTour {
    /// A one-pixel PNG: the demo's photo, uploaded, described and posted like any other.
    static let photo = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    )!
    static let alt = "A single orange pixel, the demo's photo"
}
