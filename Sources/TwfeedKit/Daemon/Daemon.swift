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

    public struct Dependencies: Sendable {
        public var transport: any HTTPTransport
        public var clock: any WallClock

        public init(transport: any HTTPTransport = CurlTransport(), clock: any WallClock = SystemClock()) {
            self.transport = transport
            self.clock = clock
        }
    }

    public static func build(
        config: TwfeedConfig, credentials: Credentials, database: AppDatabase,
        dependencies: Dependencies = Dependencies(), statusPath: String? = nil, wakePath: String? = nil,
        logger: Logger
    ) throws -> Daemon {
        guard credentials.hasAccessToken else {
            throw TwfeedError(.configuration, "\(config.credentials): no access token; run twfeed login")
        }
        let api = TwitterAPIFactory.make(config: config, credentials: credentials, transport: dependencies.transport)
        let account = AccountResolver(api: api, database: database, accessToken: credentials.accessToken ?? "", logger: logger)
        var services: [any Service] = []
        var syncers: [FeedSyncer] = []
        for feed in config.enabledFeeds {
            let syncer = FeedSyncer(
                feed: feed, api: api, account: account, database: database, clock: dependencies.clock,
                interval: config.feeds[feed]!.intervalSeconds, logger: logger)
            syncers.append(syncer)
            services.append(FeedPoller(syncer: syncer, database: database, clock: dependencies.clock, logger: logger))
        }
        let doorbell = Doorbell()
        let flusher = OutboxFlusher(
            api: api, database: database, clock: dependencies.clock, doorbell: doorbell,
            flushInterval: config.outbox.flushIntervalSeconds, maxAgeHours: config.outbox.maxAgeHours,
            logger: logger)
        services.append(flusher)
        if let statusPath {
            let now = dependencies.clock.now()
            let snapshot = StatusSnapshot(pid: getpid(), startedAt: now, heartbeatAt: now, dialect: config.api.dialect.rawValue)
            services.append(Heartbeat(path: statusPath, snapshot: snapshot, clock: dependencies.clock, logger: logger))
        }
        return Daemon(
            config: config, database: database, services: services, syncers: syncers, flusher: flusher,
            doorbell: doorbell, wakePath: wakePath, logger: logger)
    }

    /// Runs until SIGTERM or SIGINT (or cancellation), then shuts down gracefully.
    public func run(signals: [UnixSignal] = [.sigterm, .sigint]) async throws {
        logger.info("daemon.start", metadata: [
            "pid": "\(getpid())", "dialect": "\(config.api.dialect.rawValue)",
            "feeds": "\(config.enabledFeeds.map(\.rawValue).joined(separator: ","))",
            "database": "\(config.storage.database)",
        ])
        var groupConfig = ServiceGroupConfiguration(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: signals,
            logger: Logger(label: "twfeed.lifecycle", factory: { _ in SwiftLogNoOpLogHandler() }))
        groupConfig.maximumGracefulShutdownDuration = .seconds(2)
        let wakeSocket = try wakePath.map { try WakeSocket(listeningAt: $0, doorbell: doorbell) }
        defer { wakeSocket?.close() }
        let group = ServiceGroup(configuration: groupConfig)
        try await group.run()
        logger.info("daemon.stop", metadata: ["pid": "\(getpid())"])
    }
}
