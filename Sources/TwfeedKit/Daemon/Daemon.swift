import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// The running twfeed: every long-running part as a `Service` in one `ServiceGroup`.
///
/// Built by `Daemon.build` from a config, so the command line, the demo and the tests
/// all assemble it the same way and differ only in what they inject (transport,
/// clock, log sink).
public struct Daemon: Sendable {
    public let config: TwfeedConfig
    public let database: AppDatabase
    public let services: [any Service]
    public let syncers: [FeedSyncer]
    public let flusher: OutboxFlusher
    /// Rung when a status is queued; `twfeed post` rings it through the wake socket.
    public let doorbell: Doorbell
    let wakePath: String?
    public let logger: Logger
    /// The live status the heartbeat writes to the snapshot file.
    public let board: StatusBoard
    /// The working loops check in here; the pinger feeds systemd while none is hung.
    public let watchdog: Watchdog
    let statusPath: String?

    public struct Dependencies: Sendable {
        public var transport: any HTTPTransport
        public var clock: any WallClock
        /// systemd's notification socket, when the daemon runs under it.
        public var notifier: (any Notifier)?

        public init(transport: any HTTPTransport = CurlTransport(), clock: any WallClock = SystemClock(),
                    notifier: (any Notifier)? = nil) {
            self.transport = transport
            self.clock = clock
            self.notifier = notifier
        }
    }

    public static func build(
        config: TwfeedConfig, credentials: Credentials, database: AppDatabase,
        dependencies: Dependencies = Dependencies(), statusPath: String? = nil, wakePath: String? = nil,
        board: StatusBoard? = nil, logger: Logger
    ) throws -> Daemon {
        guard credentials.hasAccessToken else {
            throw TwfeedError(.configuration, "\(config.credentials): no access token; run twfeed login")
        }
        let api = TwitterAPIFactory.make(config: config, credentials: credentials, transport: dependencies.transport)
        let account = AccountResolver(api: api, database: database, accessToken: credentials.accessToken ?? "", logger: logger)
        var services: [any Service] = []
        var syncers: [FeedSyncer] = []
        let board = board ?? StatusBoard(config: config, database: database, startedAt: dependencies.clock.now())
        board.reconfigure(config: config, database: database, signedOut: false)
        let watchdog = Watchdog(clock: dependencies.clock, hangAfter: Watchdog.hangAfter(config: config))
        for feed in config.enabledFeeds {
            var syncer = FeedSyncer(
                feed: feed, api: api, account: account, database: database, clock: dependencies.clock,
                interval: config.feeds[feed]!.intervalSeconds, logger: logger)
            syncer.onProgress = { watchdog.working("poll.\(feed.rawValue)") }
            syncers.append(syncer)
            services.append(FeedPoller(syncer: syncer, database: database, clock: dependencies.clock, logger: logger,
                                       watchdog: watchdog, onCycle: { board.record($0, $1) }))
        }
        let doorbell = Doorbell()
        let flusher = OutboxFlusher(
            api: api, database: database, clock: dependencies.clock, doorbell: doorbell,
            flushInterval: config.outbox.flushIntervalSeconds, maxAgeHours: config.outbox.maxAgeHours,
            logger: logger).watched(by: watchdog)
        services.append(flusher)
        if config.images.enabled {
            let images = ImageServices.make(config: config, database: database, clock: dependencies.clock, logger: logger)
            services += [images.fetcher, images.janitor] as [any Service]
        }
        if config.storage.keepDays > 0 { services.append(Pruner(database: database, clock: dependencies.clock, keepDays: config.storage.keepDays, logger: logger)) }
        services += monitoringServices(board: board, watchdog: watchdog, statusPath: statusPath,
                                       dependencies: dependencies, logger: logger)
        return Daemon(
            config: config, database: database, services: services, syncers: syncers, flusher: flusher,
            doorbell: doorbell, wakePath: wakePath, logger: logger, board: board, watchdog: watchdog,
            statusPath: statusPath)
    }

    /// The heartbeat (snapshot file and `STATUS=`) and, under a systemd watchdog, the
    /// pinger: what runs whether or not the daemon is signed in.
    static func monitoringServices(board: StatusBoard, watchdog: Watchdog, statusPath: String?,
                                   dependencies: Dependencies, logger: Logger) -> [any Service] {
        var services: [any Service] = []
        if statusPath != nil || dependencies.notifier != nil {
            services.append(Heartbeat(path: statusPath, board: board, clock: dependencies.clock,
                                      notifier: dependencies.notifier, logger: logger))
        }
        if let notifier = dependencies.notifier, let interval = notifier.watchdogInterval {
            services.append(WatchdogPinger(watchdog: watchdog, notifier: notifier, interval: interval, logger: logger))
        }
        return services
    }

    /// Runs until SIGTERM or SIGINT (or cancellation), then shuts down gracefully.
    public func run(signals: [UnixSignal] = [.sigterm, .sigint]) async throws {
        logger.info("daemon.start", metadata: [
            "pid": "\(getpid())", "dialect": "\(config.api.dialect.rawValue)",
            "feeds": "\(config.enabledFeeds.map(\.rawValue).joined(separator: ","))",
            "database": "\(config.storage.database)",
        ])
        let wakeSocket = try wakePath.map { try WakeSocket(listeningAt: $0, doorbell: doorbell) }
        defer { wakeSocket?.close() }
        let group = Self.serviceGroup(services, signals: signals)
        defer { statusPath.map { _ = unlink($0) } }
        try await group.run()
        logger.info("daemon.stop", metadata: ["pid": "\(getpid())"])
    }

    /// The services as one group that shuts down gracefully within two seconds.
    static func serviceGroup(_ services: [any Service], signals: [UnixSignal]) -> ServiceGroup {
        var groupConfig = ServiceGroupConfiguration(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: signals,
            logger: Logger(label: "twfeed.lifecycle", factory: { _ in SwiftLogNoOpLogHandler() }))
        groupConfig.maximumGracefulShutdownDuration = .seconds(2)
        return ServiceGroup(configuration: groupConfig)
    }
}
