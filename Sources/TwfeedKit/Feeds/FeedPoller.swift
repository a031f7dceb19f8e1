import Foundation
import Logging
import ServiceLifecycle
import TwfeedCore
import TwfeedReader
import TwfeedStore

/// Runs a feed's syncer on its schedule for the life of the daemon.
///
/// The schedule has one owner: each poll's outcome says when to poll next, and the
/// poller sleeps until then. The syncer also stores that time (`nextPollAt`), which is
/// read once at start, so a restart keeps the rate-limit waits and backoffs it had.
/// On graceful shutdown the wait or the request in flight is cancelled; a transaction
/// that has begun always completes.
package struct FeedPoller: Service {
    let syncer: FeedSyncer
    let database: AppDatabase
    let clock: any WallClock
    let logger: Logger
    let onCycle: @Sendable (Feed, PollOutcome) async -> Void
    /// Told when this loop works and when it sleeps, so a hung poll stops the
    /// systemd watchdog's pings.
    let checkIn: Watchdog.CheckIn
    /// Counts each poll's requests and times it (`twfeed_poll_*`).
    let metrics: TwfeedMetrics?

    package init(
        syncer: FeedSyncer,
        database: AppDatabase,
        clock: any WallClock,
        logger: Logger,
        checkIn: Watchdog.CheckIn = .unwatched,
        metrics: TwfeedMetrics? = nil,
        onCycle: @escaping @Sendable (Feed, PollOutcome) async -> Void = { _, _ in }
    ) {
        self.syncer = syncer
        self.database = database
        self.clock = clock
        self.logger = logger
        self.checkIn = checkIn
        self.metrics = metrics
        self.onCycle = onCycle
    }

    package func run() async throws {
        checkIn.working()
        defer { checkIn.leave() }
        try await cancelWhenGracefulShutdown {
            let repaired = try await database.repairSyncState(
                syncer.feed,
                now: clock.now(),
                maxWait: RateLimit.maxResetDistance + syncer.interval
            )
            if !repaired.isEmpty {
                logger.warning("sync.repaired", metadata: ["feed": "\(syncer.feed.rawValue)", "fields": "\(repaired.joined(separator: ","))"])
            }
            // The stored schedule, once: what the previous run (or generation) decided.
            var next = try await database.syncState(syncer.feed).nextPollAt
            while !Task.isCancelled {
                let due = next ?? clock.now()
                checkIn.waiting(until: due)
                do {
                    try await clock.sleep(until: due)
                } catch is CancellationError {
                    return
                }
                checkIn.working()
                do {
                    let started = clock.monotonicNow()
                    let outcome = try await syncer.poll(onProgress: checkIn.working)
                    next = outcome.nextPollAt
                    metrics?.pollFinished(
                        syncer.feed,
                        requests: outcome.requests,
                        failure: outcome.error?.kind.metricLabel,
                        seconds: clock.monotonicNow() - started
                    )
                    await onCycle(syncer.feed, outcome)
                } catch is CancellationError {
                    return
                } catch {
                    // The database itself failed: log and try again later rather than
                    // tearing the daemon down.
                    logger.error("poll.store_failed", metadata: ["feed": "\(syncer.feed.rawValue)", "error": "\(error)"])
                    checkIn.waiting(until: clock.now().addingTimeInterval(60))
                    try? await clock.sleep(for: 60)
                    next = nil
                }
            }
        }
    }
}
