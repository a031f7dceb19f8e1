import Foundation
import TwfeedCore
import TwfeedStatus
import TwfeedStore

/// What the reader's pages read: the store (the daemon's own, or a read-only one for
/// `twfeed serve`), the image cache, the status the header and `/healthz` show, and the
/// metrics. One value, so the daemon and `serve` build the same server.
package struct ReaderSource: Sendable {
    package var database: StoreReader
    package var config: TwfeedConfig
    /// The daemon's status snapshot (its heartbeat), which says whether it runs.
    package var statusPath: String
    package var metrics: TwfeedMetrics
    /// In the daemon: whether its loops make progress (no loop hung, per the watchdog).
    /// Nil in `twfeed serve`, which reads the daemon's heartbeat instead.
    package var loopsProgress: (@Sendable () -> Bool)?
    /// The wall clock the pages' relative times and the status are read against.
    package var clock: any WallClock
    /// Who may use the pages (`http.auth`), and the keys they hand out.
    package var access: ReaderAccess
    /// Where the compose and outbox pages queue, cancel and retry.
    package var outbox: any ReaderOutbox
    /// Where a page asks for the posts it shows as not fetched yet.
    package var fetches: any ReaderFetches
    let images: ImageStore

    package init(
        database: StoreReader,
        config: TwfeedConfig,
        statusPath: String,
        metrics: TwfeedMetrics,
        access: ReaderAccess,
        outbox: any ReaderOutbox,
        fetches: any ReaderFetches,
        loopsProgress: (@Sendable () -> Bool)? = nil,
        clock: any WallClock = SystemClock()
    ) {
        self.database = database
        self.config = config
        self.statusPath = statusPath
        self.metrics = metrics
        self.loopsProgress = loopsProgress
        self.clock = clock
        self.access = access
        self.outbox = outbox
        self.fetches = fetches
        images = ImageStore(root: config.storage.imageCache)
    }

    /// `twfeed status`'s report, read now.
    func status(now: Date? = nil) throws -> StatusReport {
        try StatusReport.collect(config: config, statusPath: statusPath, now: now ?? clock.now(), database: database)
    }

    /// Whether the daemon's loops make progress: its heartbeat is fresh, and (inside
    /// the daemon) no loop is hung.
    func up(_ report: StatusReport) -> Bool {
        let beating =
            report.running && (report.heartbeatAge ?? .infinity) <= StatusReport.staleAfter
            && report.snapshot?.signedOut != true
        return beating && (loopsProgress?() ?? true)
    }

    /// The URL path of an author's cached picture, nil while it is not on disk.
    func avatarHref(_ file: String) -> String? {
        images.exists(file) ? "/avatars/\(file)" : nil
    }
}
