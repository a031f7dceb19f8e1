import Foundation
import GRDB
import Testing
@testable import TwfeedKit
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

    func statsCounts(_ database: AppDatabase) throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try Feed.allCases.map { ($0.rawValue, try database.feedStats($0).tweets) })
            .filter { $0.value > 0 }
    }

    @Test func feedCountsFollowNewRepeatedAndDeletedTweets() async throws {
        let database = try await PopulatedStore.make(tweets: 700)
        #expect(try statsCounts(database) == ["home": 700, "mentions": 233, "retweets": 100])
        // A page fetched again adds nothing (INSERT OR IGNORE fires no trigger).
        let again = (0..<10).map { Tweet(id: TweetID(Int64(1_000_001 + $0)), authorID: TweetID(1), createdAt: PopulatedStore.start, text: "x") }
        try database.storePage(TimelinePage(tweets: again, authors: [PopulatedStore.author(1)], nextPageToken: nil),
                               feed: .home, state: SyncState(feed: .home), now: Date())
        #expect(try database.feedStats(.home).tweets == 700)
        // Deleting tweets (as retention does) takes their tags, and the counts, with them.
        try database.tamper { db in try db.execute(sql: "DELETE FROM tweet WHERE id <= 1000210") }
        #expect(try statsCounts(database) == realFeedCounts(database))
        #expect(try database.feedStats(.home).tweets == 490)
        try database.tamper { db in try db.execute(sql: "DELETE FROM feedMembership WHERE feed = 'retweets'") }
        #expect(try database.feedStats(.retweets).tweets == 0)
        #expect(try statsCounts(database) == realFeedCounts(database))
    }

    @Test func feedStatsNameTheNewestTweetAndItsTime() async throws {
        let database = try await PopulatedStore.make(tweets: 700)
        let stats = try database.feedStats(.mentions)
        #expect(stats.newestID == TweetID(1_000_698))
        #expect(stats.newestCreatedAt == PopulatedStore.start.addingTimeInterval(697 * 60))
        let empty = try AppDatabase.inMemory().feedStats(.home)
        #expect(empty == FeedStats(tweets: 0, newestID: nil, newestCreatedAt: nil))
    }

    @Test func outboxCountsFollowEveryTransitionAndDelete() async throws {
        let database = try await PopulatedStore.make(tweets: 100)
        let (counts, _) = try database.outboxCounts(now: PopulatedStore.start)
        #expect(counts == [.pending: 5, .sending: 5, .sent: 5, .failed: 5, .expired: 5, .cancelled: 5])
        let pending = try database.outboxItems(state: .pending)
        try database.transitionOutbox(pending[0].id, from: [.pending], to: .sending)
        _ = try database.cancelOutbox(pending[1].id)
        try database.tamper { db in try db.execute(sql: "DELETE FROM outbox WHERE state = 'failed'") }
        let (after, _) = try database.outboxCounts(now: PopulatedStore.start)
        #expect(after == [.pending: 3, .sending: 6, .sent: 5, .expired: 5, .cancelled: 6])
        #expect(after == (try realOutboxCounts(database)).filter { $0.value > 0 })
    }

    @Test func theFlusherReadsOneStateOldestFirst() async throws {
        let database = try await PopulatedStore.make(tweets: 100)
        let pending = try database.outboxItems(state: .pending)
        #expect(pending.map(\.text) == ["status 0", "status 6", "status 12", "status 18", "status 24"])
        #expect(try database.outboxItems(state: .pending, limit: 1).map(\.text) == ["status 0"])
        #expect(try database.outboxItems(state: .sent).count == 5)
    }

    /// An existing database (at v3, with tweets and an outbox) gets its counters filled
    /// by the v4 migration.
    @Test func theMigrationCountsAnExistingDatabase() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v3: profile images")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO tweet (id, authorId, createdAt, text, raw, fetchedAt) VALUES (1, 1, 0, 'a', '{}', 0), (2, 1, 60, 'b', '{}', 0);
                INSERT INTO feedMembership (feed, tweetId, addedAt) VALUES ('home', 1, 0), ('home', 2, 0), ('mentions', 2, 0);
                INSERT INTO outbox (text, state, createdAt, queuedAt) VALUES ('x', 'sent', 0, 0), ('y', 'pending', 0, 0);
                """)
        }
        try AppDatabase.migrator.migrate(queue)
        let database = AppDatabase(queue, path: "memory")
        #expect(try database.feedStats(.home).tweets == 2)
        #expect(try database.feedStats(.mentions).tweets == 1)
        #expect(try database.feedStats(.retweets).tweets == 0)
        #expect(try database.outboxCounts(now: Date()).0 == [.sent: 1, .pending: 1])
    }
}
