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

    public init(syncer: FeedSyncer, database: AppDatabase, clock: any WallClock, logger: Logger,
                onCycle: @escaping @Sendable (Feed, PollOutcome) async -> Void = { _, _ in }) {
        self.syncer = syncer
        self.database = database
        self.clock = clock
        self.logger = logger
        self.onCycle = onCycle
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let due = try database.syncState(syncer.feed).nextPollAt ?? clock.now()
                do {
                    try await clock.sleep(until: due)
                } catch is CancellationError {
                    return
                }
                do {
                    let outcome = try await syncer.poll()
                    await onCycle(syncer.feed, outcome)
                } catch is CancellationError {
                    return
                } catch {
                    // The database itself failed: log and try again later rather than
                    // tearing the daemon down.
                    logger.error("poll.store_failed", metadata: ["feed": "\(syncer.feed.rawValue)", "error": "\(error)"])
                    try? await clock.sleep(for: 60)
                }
            }
        }
    }
}
