import Foundation
import Logging
import ServiceLifecycle

/// Runs a feed's syncer on its schedule for the life of the daemon.
///
/// The schedule lives in the database (`nextPollAt`), so a restart keeps the rate-limit
/// waits and backoffs it had. On graceful shutdown the wait or the request in flight is
/// cancelled; a transaction that has begun always completes.
public struct FeedPoller: Service {
    let syncer: FeedSyncer
    let database: AppDatabase
    let clock: any WallClock
    let logger: Logger
    let onCycle: @Sendable (Feed, PollOutcome) async -> Void
    /// Told when this loop works and when it sleeps, so a hung poll stops the
    /// systemd watchdog's pings.
    let watchdog: Watchdog?

    public init(syncer: FeedSyncer, database: AppDatabase, clock: any WallClock, logger: Logger,
                watchdog: Watchdog? = nil,
                onCycle: @escaping @Sendable (Feed, PollOutcome) async -> Void = { _, _ in }) {
        self.syncer = syncer
        self.database = database
        self.clock = clock
        self.logger = logger
        self.watchdog = watchdog
        self.onCycle = onCycle
    }

    public var watchdogName: String { "poll.\(syncer.feed.rawValue)" }

    public func run() async throws {
        let name = watchdogName
        watchdog?.working(name)
        defer { watchdog?.leave(name) }
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let due = try database.syncState(syncer.feed).nextPollAt ?? clock.now()
                watchdog?.waiting(name, until: due)
                do {
                    try await clock.sleep(until: due)
                } catch is CancellationError {
                    return
                }
                watchdog?.working(name)
                do {
                    let outcome = try await syncer.poll()
                    await onCycle(syncer.feed, outcome)
                } catch is CancellationError {
                    return
                } catch {
                    // The database itself failed: log and try again later rather than
                    // tearing the daemon down.
                    logger.error("poll.store_failed", metadata: ["feed": "\(syncer.feed.rawValue)", "error": "\(error)"])
                    watchdog?.waiting(name, until: clock.now().addingTimeInterval(60))
                    try? await clock.sleep(for: 60)
                }
            }
        }
    }
}
