import Foundation
import Logging
import ServiceLifecycle
import TwfeedCore
import TwfeedStatus
import TwfeedStore
import UnixSignals

/// The factory: a config (and credentials) in, a `Daemon` out.
extension Daemon {
    package struct Dependencies: Sendable {
        package var transport: any APITransport
        package var clock: any WallClock
        /// systemd's notification socket, when the daemon runs under it.
        package var notifier: (any Notifier)?
        /// The process's metrics: one for every generation, so a reload keeps the counters.
        package var metrics: TwfeedMetrics
        /// Builds the web reader when `http.listen` is set (`ReaderServer.inDaemon`): the
        /// reader is not below the daemon, so whoever links both hands it in. Nil in
        /// builds without pages (the bench, the daemon's own tests).
        package var reader: DaemonReader.Make?

        package init(
            transport: any APITransport = CurlTransport(),
            clock: any WallClock = SystemClock(),
            notifier: (any Notifier)? = nil,
            metrics: TwfeedMetrics = TwfeedMetrics(),
            reader: DaemonReader.Make? = nil
        ) {
            self.transport = transport
            self.clock = clock
            self.notifier = notifier
            self.metrics = metrics
            self.reader = reader
        }
    }

    /// The signed-in daemon: pollers, the outbox, the image services, and monitoring.
    package static func build(
        config: TwfeedConfig,
        credentials: Credentials,
        database: AppDatabase,
        dependencies: Dependencies = Dependencies(),
        statusPath: String? = nil,
        wakePath: String? = nil,
        board: StatusBoard? = nil,
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        logger: Logger
    ) throws -> Daemon {
        guard credentials.hasAccessToken else {
            throw TwfeedError(.configuration, "\(config.credentials): no access token; run twfeed login")
        }
        let api = TwitterAPIFactory.make(
            config: config,
            credentials: credentials,
            transport: dependencies.transport,
            clock: dependencies.clock
        )
        var services: [any Service] = []
        var syncers: [FeedSyncer] = []
        var feedDoorbells: [Doorbell] = []
        let doorbell = Doorbell()
        let fetcherDoorbell = Doorbell()
        let gate = BillingGate(
            database: database,
            config: config.api,
            clock: dependencies.clock,
            logger: logger,
            readers: Set(config.enabledFeeds.map(BillingTerms.source(of:))),
            onRecovered: { doorbell.ring() }
        )
        let account = AccountResolver(
            api: api,
            database: database,
            accessToken: credentials.accessToken ?? "",
            logger: logger,
            clock: dependencies.clock,
            terms: BillingTerms(config.api),
            gate: gate
        )
        // The authors answers leave out, bought by one rule for the feeds and the fetcher.
        let authors = AuthorLookup(
            api: api,
            database: database,
            clock: dependencies.clock,
            prices: config.api.prices,
            gate: gate,
            freshFor: config.images.revalidateDays * 86_400
        )
        let board = board ?? StatusBoard(config: config, database: database, startedAt: dependencies.clock.now())
        board.reconfigure(config: config, database: database, signedOut: false)
        let watchdog = Watchdog(clock: dependencies.clock, hangAfter: Watchdog.hangAfter(config: config))
        for feed in config.enabledFeeds {
            let syncer = FeedSyncer(
                feed: feed,
                api: api,
                account: account,
                database: database,
                clock: dependencies.clock,
                interval: config.feeds[feed]!.intervalSeconds,
                fullWalkHours: config.feeds[feed]!.fullWalkHours,
                retweetsCheck: config.api.ownsApp ? .ownOriginals : .repostsOfMe,
                authors: authors,
                logger: logger,
                terms: BillingTerms(config.api),
                gate: gate
            )
            syncers.append(syncer)
            let feedDoorbell = Doorbell()
            feedDoorbells.append(feedDoorbell)
            services.append(
                FeedPoller(
                    syncer: syncer,
                    database: database,
                    clock: dependencies.clock,
                    logger: logger,
                    doorbell: feedDoorbell,
                    checkIn: watchdog.checkIn(.poll(feed)),
                    metrics: dependencies.metrics,
                    onCycle: {
                        board.record($0, $1)
                        // After a poll, what the newest posts point at is prefetched.
                        fetcherDoorbell.ring()
                    }
                )
            )
        }
        let flusher = OutboxFlusher(
            api: api,
            database: database,
            clock: dependencies.clock,
            doorbell: doorbell,
            flushInterval: config.outbox.flushIntervalSeconds,
            maxAgeHours: config.outbox.maxAgeHours,
            logger: logger,
            checkIn: watchdog.checkIn(.outbox),
            metrics: dependencies.metrics,
            terms: BillingTerms(config.api),
            gate: gate
        )
        services.append(flusher)
        let fetcher = TweetFetcher(
            api: api,
            database: database,
            clock: dependencies.clock,
            logger: logger,
            terms: BillingTerms(config.api),
            gate: gate,
            feeds: config.enabledFeeds,
            prefetchDepth: config.graph.prefetchDepth,
            authors: authors,
            doorbell: fetcherDoorbell
        )
        services.append(fetcher)
        if config.images.enabled {
            let images = ImageServices.make(config: config, database: database, clock: dependencies.clock, logger: logger)
            services += [images.fetcher, images.janitor] as [any Service]
            if let photos = images.photos { services.append(photos) }
        }
        if config.storage.keepDays > 0 {
            services.append(Pruner(database: database, clock: dependencies.clock, keepDays: config.storage.keepDays, logger: logger))
        }
        services.append(SpendDayReporter(database: database, clock: dependencies.clock, logger: logger))
        services.append(SearchIndexMerger(database: database, clock: dependencies.clock, logger: logger))
        services += monitoringServices(
            board: board,
            watchdog: watchdog,
            statusPath: statusPath,
            dependencies: dependencies,
            logger: logger
        )
        services += try readerServices(
            config: config,
            database: database,
            doorbell: doorbell,
            fetcherDoorbell: fetcherDoorbell,
            watchdog: watchdog,
            board: board,
            statusPath: statusPath,
            dependencies: dependencies,
            logger: logger
        )
        return Daemon(
            config: config,
            database: database,
            services: services,
            syncers: syncers,
            flusher: flusher,
            fetcher: fetcher,
            doorbell: doorbell,
            // The wake socket rings these with the outbox's: `twfeed fill`, `twfeed fetch`.
            feedDoorbells: feedDoorbells + [fetcherDoorbell],
            wakePath: wakePath,
            logger: logger,
            board: board,
            watchdog: watchdog,
            statusPath: statusPath,
            gracefulShutdownSignals: gracefulShutdownSignals
        )
    }

    /// The daemon without an access token: it neither polls nor posts, keeps its status
    /// snapshot (which says so) and waits for credentials.
    package static func signedOut(
        config: TwfeedConfig,
        database: AppDatabase,
        dependencies: Dependencies = Dependencies(),
        statusPath: String? = nil,
        board: StatusBoard? = nil,
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        logger: Logger
    ) throws -> Daemon {
        let board = board ?? StatusBoard(config: config, database: database, startedAt: dependencies.clock.now())
        board.reconfigure(config: config, database: database, signedOut: true)
        let watchdog = Watchdog(clock: dependencies.clock, hangAfter: Watchdog.hangAfter(config: config))
        let services =
            try monitoringServices(
                board: board,
                watchdog: watchdog,
                statusPath: statusPath,
                dependencies: dependencies,
                logger: logger
            )
            + readerServices(
                config: config,
                database: database,
                doorbell: nil,
                watchdog: watchdog,
                board: board,
                statusPath: statusPath,
                dependencies: dependencies,
                logger: logger
            )
        logger.warning(
            "auth.signed_out",
            metadata: [
                "credentials": "\(config.credentials)",
                "hint": "no access token: not polling or posting; run twfeed login, then reload",
            ]
        )
        return Daemon(
            config: config,
            database: database,
            services: services,
            syncers: [],
            flusher: nil,
            doorbell: Doorbell(),
            wakePath: nil,
            logger: logger,
            board: board,
            watchdog: watchdog,
            statusPath: statusPath,
            gracefulShutdownSignals: gracefulShutdownSignals
        )
    }

    /// The heartbeat (snapshot file and `STATUS=`) and, under a systemd watchdog, the
    /// pinger: what runs whether or not the daemon is signed in.
    static func monitoringServices(
        board: StatusBoard,
        watchdog: Watchdog,
        statusPath: String?,
        dependencies: Dependencies,
        logger: Logger
    ) -> [any Service] {
        var services: [any Service] = []
        if statusPath != nil || dependencies.notifier != nil {
            services.append(
                Heartbeat(
                    path: statusPath,
                    board: board,
                    clock: dependencies.clock,
                    notifier: dependencies.notifier,
                    logger: logger
                )
            )
        }
        if let notifier = dependencies.notifier, let interval = notifier.watchdogInterval {
            services.append(WatchdogPinger(watchdog: watchdog, notifier: notifier, interval: interval, logger: logger))
        }
        return services
    }

    /// The web reader, when `http.listen` is set: it reads the daemon's own store, and
    /// its compose page queues through a durable writer and rings the outbox (`doorbell`;
    /// nil while signed out, when nothing flushes).
    static func readerServices(
        config: TwfeedConfig,
        database: AppDatabase,
        doorbell: Doorbell?,
        fetcherDoorbell: Doorbell? = nil,
        watchdog: Watchdog,
        board: StatusBoard? = nil,
        statusPath: String?,
        dependencies: Dependencies,
        logger: Logger
    ) throws -> [any Service] {
        guard let address = config.http.listen else { return [] }
        guard let makeReader = dependencies.reader else {
            throw TwfeedError(.configuration, "http.listen \(address): this build of the daemon has no web reader")
        }
        // The pages' header shows the board's live status instead of counting the store again.
        var live: (@Sendable () -> StatusSnapshot)?
        if let board { live = { board.snapshot } }
        let reader = DaemonReader(
            address: address,
            database: database.reader,
            config: config,
            statusPath: statusPath ?? StatusSnapshot.path(config: config),
            metrics: dependencies.metrics,
            outbox: DurableOutbox(path: config.storage.database, wake: { doorbell?.ring() }),
            fetches: FetchRequester(database: database, clock: dependencies.clock, logger: logger, wake: { fetcherDoorbell?.ring() }),
            loopsProgress: { watchdog.hung().isEmpty },
            board: live,
            clock: dependencies.clock,
            logger: logger
        )
        return [try makeReader(reader)]
    }
}
