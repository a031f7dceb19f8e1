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
    /// In the daemon: its live status (`StatusBoard.snapshot`), which a page's header
    /// shows instead of counting the store again. Nil in `twfeed serve`, whose pages read
    /// the counts with their posts (`StorePage.counts`).
    package var board: (@Sendable () -> StatusSnapshot)?
    /// The wall clock the pages' relative times and the status are read against.
    package var clock: any WallClock
    /// Who may use the pages (`http.auth`), and the keys they hand out.
    package var access: ReaderAccess
    /// Where the compose and outbox pages queue, cancel and retry.
    package var outbox: any ReaderOutbox
    /// Where a page asks for the posts it shows as not fetched yet.
    package var fetches: any ReaderFetches
    /// The most `/compose` reads of a form with photos (`ComposeForm.bodyLimit`); a
    /// test lowers it to see the refusal without sending 200 MB.
    package var composeLimit = ComposeForm.bodyLimit
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
        board: (@Sendable () -> StatusSnapshot)? = nil,
        clock: any WallClock = SystemClock()
    ) {
        self.board = board
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

    /// `twfeed status`'s report, read now (one read of the store).
    func status(now: Date? = nil) async throws -> StatusReport {
        try await StatusReport.collect(config: config, statusPath: statusPath, now: now ?? clock.now(), database: database)
    }

    /// What `/healthz` answers: inside the daemon, its board's snapshot (what the
    /// heartbeat counted last), so a health check, however often a monitor asks, reads
    /// nothing; in `twfeed serve`, or before the board's first count, `status`.
    func health() async throws -> StatusReport {
        let now = clock.now()
        if let board, let live = StatusReport.live(board(), config: config, now: now) { return live }
        return try await status(now: now)
    }

    /// What a page asks the store for its header, with its posts: nothing inside the
    /// daemon once its board has counted (the header shows the board's snapshot).
    func countsRequest(now: Date) -> StoredCounts.Request? {
        if let board, board().counts != nil { return nil }
        return SpendCounts.request(config: config, now: now, feeds: true)
    }

    /// The status and account a page's header shows: the daemon's live snapshot; else
    /// (`serve`) the report built from `stored`, what the page read with its posts, or
    /// from one read of its own when the page read none.
    func headerStatus(now: Date, stored: StoredCounts?) async -> (report: StatusReport?, account: StatusSnapshot.Counts.AccountName?) {
        if let board, let live = StatusReport.live(board(), config: config, now: now) { return (live, live.account) }
        var stored = stored
        if stored == nil { stored = try? await database.storedCounts(SpendCounts.request(config: config, now: now, feeds: true)) }
        let report = try? await StatusReport.collect(config: config, statusPath: statusPath, now: now, database: database, stored: stored)
        return (report, stored?.account.map { .init(id: $0.userID, username: $0.username) })
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
