import Foundation
import Logging
import ServiceLifecycle
import TwfeedCore
import TwfeedStore
import UnixSignals

/// The running twfeed: one `Service` that owns its inner `ServiceGroup` (as
/// Hummingbird's `Application` does), holding every long-running part.
///
/// Built by `Daemon.build` (signed in) or `Daemon.signedOut` from a config, so `twfeed
/// run`'s reload supervisor, the demo, the tests and the benchmark all assemble and run
/// it the same way and differ only in what they inject (transport, clock, notifier,
/// log sink). Run on its own it is the whole process's daemon (`daemon.start`, the
/// wake socket, the group, `daemon.stop`); under `DaemonSupervisor` each reload
/// generation is one `Daemon`, run through `openWakeSocket` and `runServices`.
package struct Daemon: Service {
    package let config: TwfeedConfig
    package let database: AppDatabase
    package let services: [any Service]
    package let syncers: [FeedSyncer]
    /// Nil while signed out: nothing is posted.
    package let flusher: OutboxFlusher?
    /// Reads the posts twfeed lacks; nil while signed out.
    package let fetcher: TweetFetcher?
    /// Rung when a status is queued; `twfeed post` rings it through the wake socket.
    package let doorbell: Doorbell
    /// The feeds' and the fetcher's doorbells, rung with the outbox's: `twfeed fill` and `twfeed fetch` ask through them.
    let feedDoorbells: [Doorbell]
    let wakePath: String?
    package let logger: Logger
    /// The live status the heartbeat writes to the snapshot file.
    package let board: StatusBoard
    /// The working loops check in here; the pinger feeds systemd while none is hung.
    package let watchdog: Watchdog
    let statusPath: String?
    /// Built once, with the services; run once.
    private let group: ServiceGroup

    init(
        config: TwfeedConfig,
        database: AppDatabase,
        services: [any Service],
        syncers: [FeedSyncer],
        flusher: OutboxFlusher?,
        fetcher: TweetFetcher? = nil,
        doorbell: Doorbell,
        feedDoorbells: [Doorbell] = [],
        wakePath: String?,
        logger: Logger,
        board: StatusBoard,
        watchdog: Watchdog,
        statusPath: String?,
        gracefulShutdownSignals: [UnixSignal]
    ) {
        self.config = config
        self.database = database
        self.services = services
        self.syncers = syncers
        self.flusher = flusher
        self.fetcher = fetcher
        self.doorbell = doorbell
        self.feedDoorbells = feedDoorbells
        self.wakePath = wakePath
        self.logger = logger
        self.board = board
        self.watchdog = watchdog
        self.statusPath = statusPath
        var groupConfig = ServiceGroupConfiguration(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: gracefulShutdownSignals,
            logger: Logger(label: "twfeed.lifecycle", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        // The services shut down gracefully within two seconds.
        groupConfig.maximumGracefulShutdownDuration = .seconds(2)
        group = ServiceGroup(configuration: groupConfig)
    }

    /// Runs until a graceful shutdown (a signal it was built to trap, the enclosing
    /// group's, or `triggerGracefulShutdown`), then stops its services.
    package func run() async throws {
        Self.logStart(config: config, logger: logger)
        let wakeSocket: WakeSocket?
        do {
            wakeSocket = try openWakeSocket()
        } catch {
            // Only an optimisation: without it the outbox flushes on its timer.
            logger.warning("wake.failed", metadata: ["path": "\(wakePath ?? "")", "error": "\(error)"])
            wakeSocket = nil
        }
        defer { statusPath.map { _ = unlink($0) } }
        try await runServices(wakeSocket: wakeSocket)
        Self.logStop(logger: logger)
    }

    /// Starts listening for `twfeed post`'s wake-ups; nil when this daemon has no
    /// wake path. Separate from `runServices` so the supervisor can open it before
    /// telling systemd READY, and decide what a failure means.
    func openWakeSocket() throws -> WakeSocket? {
        try wakePath.map { try WakeSocket(listeningAt: $0, doorbell: doorbell, also: feedDoorbells) }
    }

    /// Runs the services' group to its end, then closes `wakeSocket`.
    func runServices(wakeSocket: WakeSocket?) async throws {
        defer { wakeSocket?.close() }
        let group = group
        try await withGracefulShutdownHandler {
            try await group.run()
        } onGracefulShutdown: {
            Task { await group.triggerGracefulShutdown() }
        }
    }

    /// Stops the services gracefully (a reload or a stop).
    package func triggerGracefulShutdown() async {
        await group.triggerGracefulShutdown()
    }

    /// `daemon.start`: once per process, by whoever runs it (this service on its own,
    /// or the reload supervisor before its first generation).
    static func logStart(config: TwfeedConfig, logger: Logger) {
        logger.info(
            "daemon.start",
            metadata: [
                "pid": "\(getpid())", "dialect": "\(config.api.dialect.rawValue)",
                "feeds": "\(config.enabledFeeds.map(\.rawValue).joined(separator: ","))",
                "database": "\(config.storage.database)",
            ]
        )
    }

    /// `daemon.stop`: the graceful shutdown finished.
    static func logStop(logger: Logger) {
        logger.info("daemon.stop", metadata: ["pid": "\(getpid())"])
    }
}
