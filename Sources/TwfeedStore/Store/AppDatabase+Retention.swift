import Foundation
import GRDB

/// Where a prune walk stands: the last old tweet it looked at, in (createdAt, id) order.
/// Kept tweets stay behind the cursor, so every batch moves forward.
package struct PruneCursor: Sendable, Equatable {
    package var createdAt: Double
    package var id: Int64

    package static let start = PruneCursor(createdAt: -Double.greatestFiniteMagnitude, id: Int64.min)
}

/// What one batch did, in its own write transaction.
package struct PruneBatch: Sendable, Equatable {
    /// Old tweets looked at (at most the batch size; fewer means the walk is done).
    package var examined = 0
    package var deletedTweets = 0
    /// Old tweets kept because a kept tweet refers to them or the outbox sent them.
    package var keptTweets = 0
    package var deletedUsers = 0
    /// Where the next batch starts.
    package var cursor: PruneCursor
    /// From BEGIN to the end of COMMIT: how long the batch held the write lock (an upper
    /// bound: it includes an automatic checkpoint COMMIT may start once the lock is free).
    /// COMMIT counts: FTS5 writes its pending index changes there.
    package var transactionSeconds: Double = 0
}

/// One bounded step of `PRAGMA incremental_vacuum`.
package struct VacuumStep: Sendable, Equatable {
    package var freedPages = 0
    /// Free pages still in the file after the step.
    package var freePages = 0
    package var transactionSeconds: Double = 0
}

extension AppDatabase {
    /// The old tweets the retention rules keep, as an SQL condition on `t`.
    ///
    /// Anchors are the tweets newer than the cutoff and every tweet the outbox sent.
    /// An old tweet is kept when it is an anchor or an anchor replies to, retweets or
    /// quotes it directly; an old tweet kept only as such a reference anchors nothing
    /// (docs/INTERFACE.md, "Retention").
    /// A post tagged `posts` or `likes` (an imported archive's, whatever other feed has it
    /// too) is kept for good: `storage.keepDays` never prunes your own history.
    private static let keptCondition = """
        EXISTS (SELECT 1 FROM outbox o WHERE o.sentTweetId = t.id)
        OR EXISTS (SELECT 1 FROM feedMembership a WHERE a.tweetId = t.id AND a.feed IN ('posts', 'likes'))
        OR EXISTS (SELECT 1 FROM tweet k WHERE k.inReplyToId = t.id
                   AND (k.createdAt >= :cutoff OR EXISTS (SELECT 1 FROM outbox o WHERE o.sentTweetId = k.id)))
        OR EXISTS (SELECT 1 FROM tweet k WHERE k.retweetOfId = t.id
                   AND (k.createdAt >= :cutoff OR EXISTS (SELECT 1 FROM outbox o WHERE o.sentTweetId = k.id)))
        OR EXISTS (SELECT 1 FROM tweet k WHERE k.quotedId = t.id
                   AND (k.createdAt >= :cutoff OR EXISTS (SELECT 1 FROM outbox o WHERE o.sentTweetId = k.id)))
        """

    /// The next old tweets after the cursor, each with whether the rules keep it: walks
    /// the createdAt index, never the table (the query-plan test checks).
    static let pruneCandidatesSQL = """
        SELECT t.id, t.createdAt, t.authorId, (\(keptCondition)) AS kept
        FROM tweet t INDEXED BY tweet_createdAt
        WHERE t.createdAt < :cutoff AND (t.createdAt, t.id) > (:afterAt, :afterId)
        ORDER BY t.createdAt, t.id LIMIT :limit
        """

    /// Deletes the next `limit` old tweets the rules do not keep, with their feed tags,
    /// their authors when no tweet is left to refer to them, and those authors'
    /// profile-image rows (the image janitor then removes the files no row names).
    /// One short IMMEDIATE transaction, timed from BEGIN to COMMIT.
    package func pruneBatch(olderThan cutoff: Date, after cursor: PruneCursor, limit: Int) async throws -> PruneBatch {
        let cutoff = cutoff.timeIntervalSince1970
        return try await writeWithoutTransaction { db in
            let started = ContinuousClock.now
            var batch = PruneBatch(cursor: cursor)
            try db.inTransaction(.immediate) {
                let rows = try Row.fetchAll(
                    db,
                    sql: Self.pruneCandidatesSQL,
                    arguments: [
                        "cutoff": cutoff, "afterAt": cursor.createdAt, "afterId": cursor.id, "limit": limit,
                    ]
                )
                batch.examined = rows.count
                if let last = rows.last { batch.cursor = PruneCursor(createdAt: last["createdAt"], id: last["id"]) }
                let doomed = rows.filter { !($0["kept"] as Bool) }
                batch.keptTweets = rows.count - doomed.count
                let ids: [Int64] = doomed.map { $0["id"] }
                guard !ids.isEmpty else { return .commit }
                try Self.willDeleteTweets(ids, db)
                let list = ids.map(String.init).joined(separator: ",")
                try db.execute(sql: "DELETE FROM feedMembership WHERE tweetId IN (\(list))")
                try db.execute(sql: "DELETE FROM tweet WHERE id IN (\(list))")
                batch.deletedTweets = db.changesCount
                let authors = Set(doomed.map { $0["authorId"] as Int64 }).map(String.init).joined(separator: ",")
                let gone = try Int64.fetchAll(
                    db,
                    sql: """
                        DELETE FROM user WHERE id IN (\(authors))
                        AND NOT EXISTS (SELECT 1 FROM tweet WHERE tweet.authorId = user.id) RETURNING id
                        """
                )
                batch.deletedUsers = gone.count
                if !gone.isEmpty {
                    try db.execute(sql: "DELETE FROM profileImage WHERE authorId IN (\(gone.map(String.init).joined(separator: ",")))")
                }
                return .commit
            }
            batch.transactionSeconds = (ContinuousClock.now - started).inSeconds
            return batch
        }
    }

    /// The hook the full-text index hangs on: called in the pruner's transaction with
    /// the ids about to be deleted, so the index drops them in the same commit.
    /// Does nothing until the search index exists (wired at the merge of issue 9).
    static func willDeleteTweets(_ ids: [Int64], _ db: Database) throws {}

    /// Image rows whose author is gone (a fetch that finished while the author was
    /// pruned): deleted, so the janitor removes their files.
    @discardableResult
    package func deleteOrphanImageRows() async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM profileImage WHERE NOT EXISTS (SELECT 1 FROM user WHERE user.id = profileImage.authorId)")
            return db.changesCount
        }
    }

    /// Gives back up to `pages` free pages to the file system, in one transaction.
    package func incrementalVacuum(pages: Int) async throws -> VacuumStep {
        try await writeWithoutTransaction { db in
            let started = ContinuousClock.now
            var step = VacuumStep()
            try db.inTransaction(.immediate) {
                let before = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
                try db.execute(sql: "PRAGMA incremental_vacuum(\(max(pages, 1)))")
                step.freePages = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
                step.freedPages = before - step.freePages
                return .commit
            }
            step.transactionSeconds = (ContinuousClock.now - started).inSeconds
            return step
        }
    }

    /// Copies the WAL into the file without waiting for readers (PASSIVE), so the pages
    /// the vacuum gave back leave the file now rather than at the next automatic
    /// checkpoint.
    package func checkpoint() async throws {
        try await writeWithoutTransaction { db in _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(PASSIVE)") }
    }

    /// Whether pruning can shrink the file: `PRAGMA auto_vacuum` is INCREMENTAL (2).
    package func hasIncrementalVacuum() async throws -> Bool {
        try await read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 2 }
    }

    /// Converts a database made before retention existed (auto_vacuum NONE): the mode
    /// changes only through a VACUUM, which rewrites the file once, outside any
    /// transaction, holding the writer for its whole length (readers go on reading).
    package func convertToIncrementalVacuum() async throws {
        try await writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            try db.execute(sql: "VACUUM")
        }
    }

}

extension StoreReading {
    /// The database file's size: pages times page size (the WAL not counted).
    package func fileBytes() async throws -> Int64 {
        try await read { db in
            let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let size = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return pages * size
        }
    }
}
