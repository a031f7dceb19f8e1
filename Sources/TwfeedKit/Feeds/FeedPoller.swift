import Foundation
import Logging
import ServiceLifecycle
import TwfeedBilling
import TwfeedCore
import TwfeedStatus
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
    /// Rung by `twfeed fill` (through the wake socket): the poller wakes, reads the
    /// feed's gaps within the spend asked for, and sleeps on to its schedule.
    let doorbell: Doorbell?

    package init(
        syncer: FeedSyncer,
        database: AppDatabase,
        clock: any WallClock,
        logger: Logger,
        doorbell: Doorbell? = nil,
        checkIn: Watchdog.CheckIn = .unwatched,
        metrics: TwfeedMetrics? = nil,
        onCycle: @escaping @Sendable (Feed, PollOutcome) async -> Void = { _, _ in }
    ) {
        self.syncer = syncer
        self.database = database
        self.clock = clock
        self.logger = logger
        self.doorbell = doorbell
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
                // The wait is a span of monotonic time, measured once: a wall-clock step
                // neither cuts it short nor stretches it. `twfeed fill` may ring the
                // doorbell meanwhile; the fill runs, and the rest of the span is waited.
                let wakeAt = clock.monotonicNow() + Swift.max(0, due.timeIntervalSince(clock.now()))
                repeat {
                    let left = Swift.max(0, wakeAt - clock.monotonicNow())
                    checkIn.waiting(until: clock.now().addingTimeInterval(left))
                    if let doorbell {
                        await doorbell.wait(until: clock.now().addingTimeInterval(left), clock: clock)
                        if Task.isCancelled { return }
                    } else {
                        do {
                            try await clock.sleep(for: left)
                        } catch is CancellationError {
                            return
                        }
                    }
                    checkIn.working()
                    await fillIfAsked()
                } while wakeAt - clock.monotonicNow() > 0.001
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

    /// Reads the feed's gaps when `twfeed fill` asked for it, then forgets the request:
    /// it was "up to this much, now". A billing state that stops reads keeps it for later.
    func fillIfAsked() async {
        do {
            guard let maxSpend = try await database.fillRequest(syncer.feed) else { return }
            let userID = try await syncer.account.userID()
            do {
                let spent = try await syncer.fill(maxSpend: maxSpend, userID: userID)
                try await database.dropFillRequest(syncer.feed)
                let left = try await database.gaps(syncer.feed).count
                logger.info(
                    "gap.fill_done",
                    metadata: ["feed": "\(syncer.feed.rawValue)", "usd": "\(spent.decimalString)", "gaps_left": "\(left)"]
                )
            } catch let hold as BillingGate.Hold {
                logger.info("gap.fill_held", metadata: ["feed": "\(syncer.feed.rawValue)", "hold": "\(hold)"])
            }
        } catch is CancellationError {
            return
        } catch {
            logger.warning("gap.fill_failed", metadata: ["feed": "\(syncer.feed.rawValue)", "error": "\(error)"])
            try? await database.dropFillRequest(syncer.feed)
        }
    }
}
