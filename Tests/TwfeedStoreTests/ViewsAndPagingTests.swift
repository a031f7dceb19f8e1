import Foundation
import GRDB
import Testing
@testable import TwfeedCore
@testable import TwfeedStore

/// The views people query by hand (docs/SCHEMA.md), and `feed --before` paging.
struct ViewsAndPagingTests {
    @Test func theTimelineViewShowsOneRowPerFeedWithISOTimesAndNames() async throws {
        let database = try await PopulatedStore.make(tweets: 100)
        let reply = Tweet(id: TweetID(1_850_000_000_000_000_123), authorID: UserID(7), createdAt: Date(timeIntervalSince1970: 1_800_000_000),
                          text: "a reply", inReplyToID: TweetID(1_000_001), quotedID: TweetID(1_000_002))
        for feed in [Feed.home, .mentions] {
            try await database.storePage(TimelinePage(tweets: [reply], authors: [PopulatedStore.author(7)], nextPageToken: nil),
                                   feed: feed, state: SyncState(feed: feed), now: Date())
        }
        let rows = try database.inspect { db in
            try Row.fetchAll(db, sql: "SELECT * FROM timeline WHERE id = '1850000000000000123' ORDER BY feed")
        }
        #expect(rows.map { $0["feed"] as String } == ["home", "mentions"])
        let row = try #require(rows.first)
        #expect(row["created_at"] == "2027-01-15T08:00:00Z")
        #expect(row["username"] == "user7")
        #expect(row["name"] == "User 7")
        #expect(row["text"] == "a reply")
        #expect(row["in_reply_to_id"] == "1000001")
        #expect(row["quoted_id"] == "1000002")
        #expect((row["retweet_of_id"] as String?) == nil)
        #expect(row["url"] == "https://x.com/user7/status/1850000000000000123")
        // Its parent is stored: whom it answers is the parent's author, as the reader says.
        #expect(row["in_reply_to_username"] == "user1")
        let newest = try database.inspect { db in
            try String.fetchAll(db, sql: "SELECT id FROM timeline WHERE feed = 'home' ORDER BY tweet_id DESC LIMIT 2")
        }
        #expect(newest == ["1850000000000000123", "1000100"])
    }

    /// A reply whose parent is not stored is named by its own answer; a post that
    /// answers nobody names nobody.
    @Test func theTimelineViewNamesWhomAReplyAnswersWhenItsParentIsNotStored() async throws {
        let database = try await PopulatedStore.make(tweets: 10)
        let orphan = Tweet(id: TweetID(2_000_001), authorID: UserID(7), createdAt: Date(timeIntervalSince1970: 1_800_000_000),
                           text: "@gone_parent yes", inReplyToID: TweetID(999), repliedUser: RepliedUser(id: UserID(99), username: "gone_parent"))
        try await database.storePage(TimelinePage(tweets: [orphan], authors: [PopulatedStore.author(7)], nextPageToken: nil),
                                     feed: .home, state: SyncState(feed: .home), now: Date())
        let names = try database.inspect { db in
            try Row.fetchAll(db, sql: "SELECT id, in_reply_to_username FROM timeline WHERE feed = 'home' AND id IN ('2000001', '1000001')")
        }
        #expect(Dictionary(uniqueKeysWithValues: names.map { ($0["id"] as String, $0["in_reply_to_username"] as String?) })
            == ["2000001": "gone_parent", "1000001": nil])
    }

    @Test func feedCountsAndPostsViews() async throws {
        let database = try await PopulatedStore.make(tweets: 100)
        let counts = try database.inspect { db in try Row.fetchAll(db, sql: "SELECT * FROM feed_counts ORDER BY feed") }
        #expect(counts.map { $0["feed"] as String } == ["home", "mentions", "retweets"])
        #expect(counts.map { $0["tweets"] as Int } == [100, 33, 14])
        #expect(counts.first?["newest_id"] == "1000100")
        #expect(counts.first?["newest_at"] == "2027-01-15T09:39:00Z")
        let sent = try database.inspect { db in try Row.fetchOne(db, sql: "SELECT * FROM posts WHERE state = 'sent' ORDER BY id") }
        #expect(sent?["text"] == "status 2")
        #expect(sent?["created_at"] == "2027-01-15T08:00:02Z")
        #expect((sent?["sent_at"] as String?) == nil)
    }

    @Test func beforePagesBackWithoutGapsOrRepeats() async throws {
        let database = try await PopulatedStore.make(tweets: 250)
        var seen: [TweetID] = []
        var before: TweetID?
        while true {
            let page = try await database.feedItems(.mentions, limit: 20, before: before)
            if page.isEmpty { break }
            seen += page.map(\.tweet.id)
            before = page.last?.tweet.id
        }
        #expect(seen == (try await database.memberIDs(.mentions)))
        #expect(seen.count == 83)
        let below = try await database.feedItems(.home, limit: 3, before: TweetID(1_000_007))
        #expect(below.map(\.tweet.id.rawValue) == [1_000_006, 1_000_005, 1_000_004])
        #expect(below.first?.feeds == [.home, .retweets])
        #expect(below.first?.author?.username == "user6")
    }
}
