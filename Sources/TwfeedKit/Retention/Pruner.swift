import Foundation
import Logging
import ServiceLifecycle
import TwfeedBase
import TwfeedCore
import TwfeedStore

/// Keeps the database to `storage.keepDays`: at start and once an hour it deletes the
/// tweets older than that which the retention rules do not keep (`AppDatabase.pruneBatch`),
/// then gives the freed pages back to the file system.
///
/// The work is cut into short write transactions (`batchSize` tweets, `vacuumPages`
/// pages) with a yield between them, so a poller's page or a reader never waits behind
/// the pruner for long; the longest transaction is logged, and the benchmark watches it.
package struct Pruner: Service {
    package static let interval: Double = 3600
    /// Tweets per transaction: measured by `twfeed-bench` to stay well under 50 ms.
    package static let defaultBatchSize = 500
    /// The first batch of a prune: small, since nothing is known yet of how long a batch
    /// takes on this machine and database; quick batches double up to `batchSize`.
    package static let firstBatchSize = 100
    /// Pages (4 KiB) per incremental-vacuum transaction.
    package static let defaultVacuumPages = 1024
    /// What one transaction may take before the next one is made smaller: half the
    /// 50 ms a poller or a reader may wait, for a loaded machine's slack.
    package static let transactionBudget = 0.010

    let database: AppDatabase
    let clock: any WallClock
    /// 0 keeps everything: the service only sleeps.
    let keepDays: Int
    let batchSize: Int
    let vacuumPages: Int
    /// Halve a batch that took longer than `transactionBudget`, grow one back that was
    /// quick (never past the configured size). Off in tests that count batches.
    let adaptive: Bool
    /// After each transaction the pruner leaves the write lock alone for this many times
    /// as long as the transaction held it (`WriteLockPacing`; 0 only yields).
    let pacing: Double
    let logger: Logger

    package init(
        database: AppDatabase,
        clock: any WallClock,
        keepDays: Int,
        batchSize: Int = Pruner.defaultBatchSize,
        vacuumPages: Int = Pruner.defaultVacuumPages,
        adaptive: Bool = true,
        pacing: Double = 1,
        logger: Logger
    ) {
        self.database = database
        self.clock = clock
        self.keepDays = keepDays
        self.batchSize = batchSize
        self.vacuumPages = vacuumPages
        self.adaptive = adaptive
        self.pacing = pacing
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if keepDays > 0 {
                    do {
                        try await convertIfNeeded()
                        try await prune()
                    } catch is CancellationError {
                        return
                    } catch {
                        logger.error("prune.failed", metadata: ["error": "\(error)"])
                    }
                }
                do {
                    try await clock.sleep(until: clock.now().addingTimeInterval(Self.interval))
                } catch {
                    return
                }
            }
        }
    }

    /// A database from before retention cannot shrink (auto_vacuum NONE): rewritten
    /// once, the first time the daemon starts with `keepDays` set.
    func convertIfNeeded() async throws {
        guard try await !database.hasIncrementalVacuum() else { return }
        let bytes = try await database.fileBytes()
        let started = ContinuousClock.now
        try await database.convertToIncrementalVacuum()
        let after = try await database.fileBytes()
        logger.notice(
            "prune.converted",
            metadata: [
                "bytes_before": "\(bytes)", "bytes_after": "\(after)",
                "ms": "\(Int((ContinuousClock.now - started).inSeconds * 1000))",
            ]
        )
    }

    /// One whole prune: every batch, then the vacuum. Stops between two batches when
    /// the task is cancelled (a graceful shutdown); the next start goes on.
    @discardableResult
    package func prune() async throws -> PruneReport {
        var report = PruneReport(cutoff: clock.now().addingTimeInterval(-Double(keepDays) * 86_400))
        guard keepDays > 0 else { return report }
        let started = ContinuousClock.now
        var cursor = PruneCursor.start
        var size = adaptive ? min(batchSize, Self.firstBatchSize) : batchSize
        while true {
            try Task.checkCancellation()
            let batch = try await database.pruneBatch(olderThan: report.cutoff, after: cursor, limit: size)
            report.add(batch)
            cursor = batch.cursor
            if batch.examined < size { break }
            size = next(size, took: batch.transactionSeconds, maximum: batchSize)
            try await pause(after: batch.transactionSeconds)
        }
        report.orphanImageRows = try await database.deleteOrphanImageRows()
        report.seconds = (ContinuousClock.now - started).inSeconds
        logger.info(
            "prune.done",
            metadata: [
                "cutoff": "\(Timestamp.iso8601(report.cutoff))",
                "deleted_tweets": "\(report.deletedTweets)", "kept_tweets": "\(report.keptTweets)",
                "deleted_users": "\(report.deletedUsers)", "batches": "\(report.batches)",
                "ms": "\(Int(report.seconds * 1000))",
                "longest_transaction_ms": "\(Int((report.longestTransactionSeconds * 1000).rounded(.up)))",
            ]
        )
        if report.deletedTweets > 0 { try await vacuum(&report) }
        return report
    }

    /// Gives the free pages back in bounded steps, so the file shrinks without one long
    /// transaction.
    func vacuum(_ report: inout PruneReport) async throws {
        let before = try await database.fileBytes()
        var longest = 0.0
        var freed = 0
        var steps = 0
        var pages = adaptive ? min(vacuumPages, Self.firstBatchSize * 2) : vacuumPages
        while true {
            try Task.checkCancellation()
            let step = try await database.incrementalVacuum(pages: pages)
            pages = next(pages, took: step.transactionSeconds, maximum: vacuumPages)
            steps += 1
            freed += step.freedPages
            longest = max(longest, step.transactionSeconds)
            if step.freePages == 0 || step.freedPages == 0 { break }
            try await pause(after: step.transactionSeconds)
        }
        try await database.checkpoint()
        report.vacuumedPages = freed
        report.longestTransactionSeconds = max(report.longestTransactionSeconds, longest)
        let after = try await database.fileBytes()
        logger.info(
            "prune.vacuum",
            metadata: [
                "pages": "\(freed)", "steps": "\(steps)", "bytes_before": "\(before)", "bytes_after": "\(after)",
                "longest_transaction_ms": "\(Int((longest * 1000).rounded(.up)))",
            ]
        )
    }

    /// Leaves the write lock to others between two transactions (see `pacing`).
    func pause(after transactionSeconds: Double) async throws {
        try await WriteLockPacing.pause(after: transactionSeconds, ratio: pacing)
    }

    /// The size of the next transaction's work, from how long the last one took.
    func next(_ size: Int, took seconds: Double, maximum: Int) -> Int {
        guard adaptive else { return size }
        if seconds > Self.transactionBudget { return max(size / 2, min(maximum, 25)) }
        if seconds < Self.transactionBudget / 4 { return min(size * 2, maximum) }
        return size
    }
}
