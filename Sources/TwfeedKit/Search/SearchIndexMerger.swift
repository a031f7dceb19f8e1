import Foundation
import Logging
import ServiceLifecycle
import TwfeedCore
import TwfeedStore

/// Keeps the full-text indexes compact without making any writer wait: FTS5's own
/// automatic merging is off (migration "v9"), because it runs inside the COMMIT of the
/// write that tipped a level over, a poller's page or a prune batch, and held the write
/// lock for hundreds of milliseconds on a large archive. Here the same work runs at start
/// and every `interval`, in steps of `pages` pages, each its own short transaction with
/// a pause after it as long as it held the lock (as the pruner paces itself).
package struct SearchIndexMerger: Service {
    /// Polls add a small segment per page; a quarter of an hour keeps the levels short.
    package static let interval: Double = 900
    package static let defaultPages = 64

    let database: AppDatabase
    let clock: any WallClock
    let pages: Int
    let logger: Logger

    package init(database: AppDatabase, clock: any WallClock, pages: Int = SearchIndexMerger.defaultPages, logger: Logger) {
        self.database = database
        self.clock = clock
        self.pages = pages
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await mergeAll()
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("search.merge_failed", metadata: ["error": "\(error)"])
                }
                do { try await clock.sleep(for: Self.interval) } catch { return }
            }
        }
    }

    /// Steps until one finds nothing to merge. Logs only when something was merged.
    @discardableResult
    package func mergeAll() async throws -> (steps: Int, longestTransactionSeconds: Double) {
        let started = ContinuousClock.now
        var steps = 0
        var longest = 0.0
        while true {
            try Task.checkCancellation()
            let step = try await database.mergeSearchIndexes(pages: pages)
            longest = max(longest, step.transactionSeconds)
            guard step.merged else { break }
            steps += 1
            try await WriteLockPacing.pause(after: step.transactionSeconds)
        }
        if steps > 0 {
            logger.info(
                "search.merged",
                metadata: [
                    "steps": "\(steps)", "ms": "\(Int((ContinuousClock.now - started).inSeconds * 1000))",
                    "longest_transaction_ms": "\(Int((longest * 1000).rounded(.up)))",
                ]
            )
        }
        return (steps, longest)
    }
}
