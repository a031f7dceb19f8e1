import Foundation
import TwfeedBase
import Logging
import ServiceLifecycle

/// Keeps the database to `storage.keepDays`: at start and once an hour it deletes the
/// tweets older than that which the retention rules do not keep (`AppDatabase.pruneBatch`),
/// then gives the freed pages back to the file system.
///
/// The work is cut into short write transactions (`batchSize` tweets, `vacuumPages`
/// pages) with a yield between them, so a poller's page or a reader never waits behind
/// the pruner for long; the longest transaction is logged, and the benchmark watches it.
public struct Pruner: Service {
    public static let interval: Double = 3600
    /// Tweets per transaction: measured by `twfeed-bench` to stay well under 50 ms.
    public static let defaultBatchSize = 500
    /// Pages (4 KiB) per incremental-vacuum transaction.
    public static let defaultVacuumPages = 1024

    let database: AppDatabase
    let clock: any WallClock
    /// 0 keeps everything: the service only sleeps.
    let keepDays: Int
    let batchSize: Int
    let vacuumPages: Int
    let logger: Logger

    public init(database: AppDatabase, clock: any WallClock, keepDays: Int, batchSize: Int = Pruner.defaultBatchSize,
                vacuumPages: Int = Pruner.defaultVacuumPages, logger: Logger) {
        self.database = database
        self.clock = clock
        self.keepDays = keepDays
        self.batchSize = batchSize
        self.vacuumPages = vacuumPages
        self.logger = logger
    }

    public func run() async throws {
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
        logger.notice("prune.converted", metadata: [
            "bytes_before": "\(bytes)", "bytes_after": "\(after)",
            "ms": "\(Int((ContinuousClock.now - started).inSeconds * 1000))",
        ])
    }

    /// One whole prune: every batch, then the vacuum. Stops between two batches when
    /// the task is cancelled (a graceful shutdown); the next start goes on.
    @discardableResult
    public func prune() async throws -> PruneReport {
        var report = PruneReport(cutoff: clock.now().addingTimeInterval(-Double(keepDays) * 86_400))
        guard keepDays > 0 else { return report }
        let started = ContinuousClock.now
        var cursor = PruneCursor.start
        while true {
            try Task.checkCancellation()
            let batch = try await database.pruneBatch(olderThan: report.cutoff, after: cursor, limit: batchSize)
            report.add(batch)
            cursor = batch.cursor
            if batch.examined < batchSize { break }
            // Lets a poller's write, queued meanwhile, take the writer before the next batch.
            await Task.yield()
        }
        report.orphanImageRows = try await database.deleteOrphanImageRows()
        report.seconds = (ContinuousClock.now - started).inSeconds
        logger.info("prune.done", metadata: [
            "cutoff": "\(Timestamp.iso8601(report.cutoff))",
            "deleted_tweets": "\(report.deletedTweets)", "kept_tweets": "\(report.keptTweets)",
            "deleted_users": "\(report.deletedUsers)", "batches": "\(report.batches)",
            "ms": "\(Int(report.seconds * 1000))",
            "longest_transaction_ms": "\(Int((report.longestTransactionSeconds * 1000).rounded(.up)))",
        ])
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
        while true {
            try Task.checkCancellation()
            let step = try await database.incrementalVacuum(pages: vacuumPages)
            steps += 1
            freed += step.freedPages
            longest = max(longest, step.transactionSeconds)
            if step.freePages == 0 || step.freedPages == 0 { break }
            await Task.yield()
        }
        try await database.checkpoint()
        report.vacuumedPages = freed
        report.longestTransactionSeconds = max(report.longestTransactionSeconds, longest)
        let after = try await database.fileBytes()
        logger.info("prune.vacuum", metadata: [
            "pages": "\(freed)", "steps": "\(steps)", "bytes_before": "\(before)", "bytes_after": "\(after)",
            "longest_transaction_ms": "\(Int((longest * 1000).rounded(.up)))",
        ])
    }
}
