import Foundation
import GRDB
import Testing
@testable import TwfeedCore
@testable import TwfeedStore

/// The counts `status` shows come from tables the triggers keep in the same transaction
/// as the change, whoever writes: they must always equal a real count.
struct CountersTests {
    func realFeedCounts(_ database: AppDatabase) throws -> [String: Int] {
        try database.inspect { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT feed, count(*) AS n FROM feedMembership GROUP BY feed")
                .map { ($0["feed"] as String, $0["n"] as Int) })
        }
    }

    func realOutboxCounts(_ database: AppDatabase) throws -> [OutboxState: Int] {
        try database.inspect { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT state, count(*) AS n FROM outbox GROUP BY state")
                .map { (try #require(OutboxState(rawValue: $0["state"] as String)), $0["n"] as Int) })
        }
    }

    func statsCounts(_ database: AppDatabase) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for feed in Feed.allCases { counts[feed.rawValue] = try await database.feedStats(feed).tweets }
        return counts.filter { $0.value > 0 }
    }

    @Test func feedCountsFollowNewRepeatedAndDeletedTweets() async throws {
        let database = try await PopulatedStore.make(tweets: 700)
        #expect(try await statsCounts(database) == ["home": 700, "mentions": 233, "retweets": 100])
        // A page fetched again adds nothing (INSERT OR IGNORE fires no trigger).
        let again = (0..<10).map { Tweet(id: TweetID(Int64(1_000_001 + $0)), authorID: UserID(1), createdAt: PopulatedStore.start, text: "x") }
        try await database.storePage(TimelinePage(tweets: again, authors: [PopulatedStore.author(1)], nextPageToken: nil),
                               feed: .home, state: SyncState(feed: .home), now: Date())
        #expect(try await database.feedStats(.home).tweets == 700)
        // Deleting tweets (as retention does) takes their tags, and the counts, with them.
        try database.tamper { db in try db.execute(sql: "DELETE FROM tweet WHERE id <= 1000210") }
        #expect(try await statsCounts(database) == realFeedCounts(database))
        #expect(try await database.feedStats(.home).tweets == 490)
        try database.tamper { db in try db.execute(sql: "DELETE FROM feedMembership WHERE feed = 'retweets'") }
        #expect(try await database.feedStats(.retweets).tweets == 0)
        #expect(try await statsCounts(database) == realFeedCounts(database))
    }

    @Test func feedStatsNameTheNewestTweetAndItsTime() async throws {
        let database = try await PopulatedStore.make(tweets: 700)
        let stats = try await database.feedStats(.mentions)
        #expect(stats.newestID == TweetID(1_000_698))
        #expect(stats.newestCreatedAt == PopulatedStore.start.addingTimeInterval(697 * 60))
        let empty = try await AppDatabase.inMemory().feedStats(.home)
        #expect(empty == FeedStats(tweets: 0, newestID: nil, newestCreatedAt: nil))
    }

    @Test func outboxCountsFollowEveryTransitionAndDelete() async throws {
        let database = try await PopulatedStore.make(tweets: 100)
        let (counts, _) = try await database.outboxCounts(now: PopulatedStore.start)
        #expect(counts == [.pending: 5, .sending: 5, .sent: 5, .failed: 5, .expired: 5, .cancelled: 5])
        let pending = try await database.outboxItems(state: .pending)
        try await database.transitionOutbox(pending[0].id, from: [.pending], to: .sending)
        _ = try await database.cancelOutbox(pending[1].id)
        try database.tamper { db in try db.execute(sql: "DELETE FROM outbox WHERE state = 'failed'") }
        let (after, _) = try await database.outboxCounts(now: PopulatedStore.start)
        #expect(after == [.pending: 3, .sending: 6, .sent: 5, .expired: 5, .cancelled: 6])
        #expect(after == (try realOutboxCounts(database)).filter { $0.value > 0 })
    }

    @Test func theFlusherReadsOneStateOldestFirst() async throws {
        let database = try await PopulatedStore.make(tweets: 100)
        let pending = try await database.outboxItems(state: .pending)
        #expect(pending.map(\.text) == ["status 0", "status 6", "status 12", "status 18", "status 24"])
        #expect(try await database.outboxItems(state: .pending, limit: 1).map(\.text) == ["status 0"])
        #expect(try await database.outboxItems(state: .sent).count == 5)
    }

    /// An existing database (at v3, with tweets and an outbox) gets its counters filled
    /// by the v4 migration.
    @Test func theMigrationCountsAnExistingDatabase() async throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v3: profile images")
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO tweet (id, authorId, createdAt, text, raw, fetchedAt) VALUES (1, 1, 0, 'a', '{}', 0), (2, 1, 60, 'b', '{}', 0);
                INSERT INTO feedMembership (feed, tweetId, addedAt) VALUES ('home', 1, 0), ('home', 2, 0), ('mentions', 2, 0);
                INSERT INTO outbox (text, state, createdAt, queuedAt) VALUES ('x', 'sent', 0, 0), ('y', 'pending', 0, 0);
                """)
        }
        try AppDatabase.migrator.migrate(queue)
        let database = AppDatabase(queue, path: "memory")
        #expect(try await database.feedStats(.home).tweets == 2)
        #expect(try await database.feedStats(.mentions).tweets == 1)
        #expect(try await database.feedStats(.retweets).tweets == 0)
        #expect(try await database.outboxCounts(now: Date()).0 == [.sent: 1, .pending: 1])
    }

    /// The cache's distinct files and their bytes as the rows name them, counted the slow way.
    func realImageTotals(_ database: AppDatabase) throws -> (files: Int, bytes: Int64) {
        try database.inspect { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT count(*) AS files, coalesce(sum(bytes), 0) AS bytes
                FROM (SELECT file, max(bytes) AS bytes FROM profileImage WHERE file IS NOT NULL GROUP BY file)
                """)!
            return (row["files"], row["bytes"])
        }
    }

    func fetched(_ database: AppDatabase, author: Int64, file: String, bytes: Int) async throws {
        let url = "https://pbs.twimg.com/\(author)_normal.png"
        let subject = AppDatabase.ImageSubject(authorID: UserID(author), sourceURL: url, size: "normal", url: url, usedAt: Date())
        _ = try await database.recordImageFetched(subject, file: file, bytes: bytes, etag: nil, lastModified: nil, now: Date())
    }

    /// `status` reads the image cache's size from two stored numbers, not by walking the
    /// folder: they must follow every fetch, shared file, eviction and delete.
    @Test func imageCacheCountsFollowFetchesSharedFilesEvictionsAndDeletes() async throws {
        let database = try AppDatabase.inMemory()
        #expect(try await database.imageCacheTotals() == (0, 0))
        try await fetched(database, author: 1, file: "aa/a.png", bytes: 100)
        try await fetched(database, author: 2, file: "aa/a.png", bytes: 100)
        try await fetched(database, author: 3, file: "bb/b.png", bytes: 50)
        #expect(try await database.imageCacheTotals() == (2, 150), "two authors share one file")
        try await fetched(database, author: 1, file: "cc/c.png", bytes: 30)
        #expect(try await database.imageCacheTotals() == (3, 180), "a still has author 2")
        try await database.clearImageFiles(["bb/b.png"], evictedAt: Date())
        #expect(try await database.imageCacheTotals() == (2, 130))
        try database.tamper { db in try db.execute(sql: "DELETE FROM profileImage WHERE authorId = 2") }
        #expect(try await database.imageCacheTotals() == (1, 30), "a's last user is gone")
        #expect(try await database.imageCacheTotals() == realImageTotals(database))
    }

    @Test func theImageCacheCountsMigrationCountsAnExistingCache() async throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v9: search merges off the write path")
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO profileImage (authorId, sourceURL, size, url, file, bytes, lastUsedAt) VALUES
                    (1, 'u', 'normal', 'u', 'aa/a.png', 100, 0), (2, 'u', 'normal', 'u', 'aa/a.png', 100, 0),
                    (3, 'u', 'normal', 'u', 'bb/b.png', 50, 0), (4, 'u', 'normal', 'u', NULL, 0, 0);
                """)
        }
        try AppDatabase.migrator.migrate(queue)
        let database = AppDatabase(queue, path: "memory")
        #expect(try await database.imageCacheTotals() == (2, 150))
    }
}
