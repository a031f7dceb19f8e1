import Logging
import ServiceLifecycle
import TwfeedCore
import TwfeedStore

/// What the daemon hands the web reader it runs when `http.listen` is set: its store's
/// reader, the doors the pages write through, and how to tell that its loops progress.
///
/// The daemon (TwfeedKit) does not import the reader, which sits beside it rather than
/// below, so it cannot build the reader's server itself: whoever links both (the
/// `twfeed` executable, the integration tests) passes `Daemon.Dependencies.reader` a
/// `Make` (`ReaderServer.inDaemon`) that turns these values into the server.
package struct DaemonReader: Sendable {
    /// Builds the reader's service from what the daemon hands it.
    package typealias Make = @Sendable (DaemonReader) throws -> any Service

    package var address: ListenAddress
    package var database: StoreReader
    package var config: TwfeedConfig
    /// The daemon's status snapshot, which says whether it runs.
    package var statusPath: String
    package var metrics: TwfeedMetrics
    package var outbox: any ReaderOutbox
    package var fetches: any ReaderFetches
    /// Whether the daemon's loops make progress (no loop hung, per its watchdog).
    package var loopsProgress: @Sendable () -> Bool
    /// The daemon's live status (its `StatusBoard`), which the pages' header shows instead
    /// of counting the store again; nil until the board exists.
    package var board: (@Sendable () -> StatusSnapshot)?
    package var clock: any WallClock
    package var logger: Logger

    package init(
        address: ListenAddress,
        database: StoreReader,
        config: TwfeedConfig,
        statusPath: String,
        metrics: TwfeedMetrics,
        outbox: any ReaderOutbox,
        fetches: any ReaderFetches,
        loopsProgress: @escaping @Sendable () -> Bool,
        board: (@Sendable () -> StatusSnapshot)? = nil,
        clock: any WallClock,
        logger: Logger
    ) {
        self.address = address
        self.database = database
        self.config = config
        self.statusPath = statusPath
        self.metrics = metrics
        self.outbox = outbox
        self.fetches = fetches
        self.loopsProgress = loopsProgress
        self.board = board
        self.clock = clock
        self.logger = logger
    }
}
