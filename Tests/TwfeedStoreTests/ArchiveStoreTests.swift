import Foundation
import GRDB
import Testing
@testable import TwfeedCore
@testable import TwfeedStore
import TwfeedBase
import TwfeedTesting

/// An imported archive's posts and likes (`twfeed import`): stored as the feeds `posts`
/// and `likes`, whole, once, never over what the API said, and never pruned.
@Suite struct ArchiveStoreTests {
    static let me = UserID(42)
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let link = TweetLink(url: "https://t.co/a1", expandedURL: "https://example.com/long/read", displayURL: "example.com/long/read")
    /// A real snowflake: 2022-03-22T13:51:39.899Z by its bits.
    static let likedID = TweetID(1_506_267_366_391_803_904)

    static func post(_ id: Int64, text: String = "my post", replyTo: Int64? = nil, links: [TweetLink] = [], media: [Media] = []) -> Tweet {
        Tweet(
            id: TweetID(id), authorID: me, createdAt: Date(timeIntervalSince1970: 1_300_000_000 + Double(id)), text: text,
            inReplyToID: replyTo.map(TweetID.init), media: media, links: links, rawJSON: #"{"id_str":"\#(id)"}"#
        )
    }

    static func like(_ id: TweetID, text: String) -> Tweet {
        Tweet(id: id, authorID: .unknown, createdAt: id.snowflakeDate, text: text, rawJSON: #"{"like":{}}"#)
    }

    static func database() async throws -> AppDatabase {
        let database = try AppDatabase.inMemory()
        try await database.saveAccount(Account(userID: me, username: "me"))
        return database
    }

    @Test func everyPostIsStoredWholeWithItsTimeLinksMediaAndThread() async throws {
        let database = try await Self.database()
        let photo = Media(key: "3_1", kind: .photo, imageURL: "https://pbs.twimg.com/media/abc.jpg", width: 10, height: 20)
        let posts = [
            Self.post(10, text: "a long post, its whole text… and the rest of it", links: [Self.link], media: [photo]),
            Self.post(11, text: "a reply to myself", replyTo: 10),
        ]
        let counts = try await database.storeArchived(posts, feed: .posts, account: Self.me, now: Self.now)
        #expect(counts == ArchiveCounts(new: 2))
        let items = try await database.feedItems(.posts, limit: 10)
        #expect(items.map(\.tweet.id) == [TweetID(11), TweetID(10)])
        #expect(items.allSatisfy { $0.feeds == [.posts] })
        let first = try #require(items.last)
        #expect(first.tweet.text == posts[0].text)
        #expect(first.tweet.createdAt == posts[0].createdAt)
        #expect(first.media.map(\.media) == [photo])
        #expect(try await database.tweetLinks([TweetID(10)]) == [TweetID(10): [Self.link]])
        // The reply joins the conversation of the post it answers.
        #expect(items.first?.tweet.conversationID == TweetID(10))
        #expect(try await database.photo("https://pbs.twimg.com/media/abc.jpg") != nil)
        // Searchable as soon as the batch is stored.
        let found = try await database.search(try SearchQuery(parsing: "rest"), feed: .posts, limit: 10)
        #expect(found.map(\.tweet.id) == [TweetID(10)])
    }

    /// A reply to a post the archive does not hold names whom it answers, as the archive
    /// said (`in_reply_to_screen_name`), in `feed posts --json`.
    @Test func aReplyToAPostNotStoredNamesWhomTheArchiveSaysItAnswers() async throws {
        let database = try await Self.database()
        var reply = Self.post(12, text: "@bob agreed", replyTo: 5)
        reply.repliedUser = RepliedUser(id: UserID(77), username: "bob")
        #expect(try await database.storeArchived([reply], feed: .posts, account: Self.me, now: Self.now) == ArchiveCounts(new: 1))
        let item = try #require(try await database.feedItems(.posts, limit: 10).first)
        var json: [UInt8] = []
        item.appendJSON(to: &json)
        #expect(try JSONValue.parse(json)["inReplyTo"] == .object(["id": .string("5"), "username": .string("bob")]))
    }

    /// An archive lists its newest posts first: a thread's replies arrive in batches
    /// before the posts they answer, and the whole thread still settles on its root.
    @Test func aThreadStoredNewestFirstSettlesOnItsRoot() async throws {
        let database = try await Self.database()
        for post in [Self.post(32, replyTo: 31), Self.post(31, replyTo: 30), Self.post(30)] {
            _ = try await database.storeArchived([post], feed: .posts, account: Self.me, now: Self.now)
        }
        let items = try await database.feedItems(.posts, limit: 10)
        #expect(items.map(\.tweet.conversationID) == [TweetID(30), TweetID(30), TweetID(30)])
    }

    /// One batch, newest first: a thread within it, a reply to a post stored before, and
    /// the missing parent of a stored reply, itself a reply to a post never stored. Each
    /// post joins its thread's root (or the first post missing on the way up), the stored
    /// reply follows, and a reply to it takes the same.
    @Test func aBatchJoinsItsThreadsAndThoseStoredBefore() async throws {
        let database = try await Self.database()
        let before = [Self.post(50), Self.post(51, replyTo: 50), Self.post(41, replyTo: 40)]
        _ = try await database.storeArchived(before, feed: .posts, account: Self.me, now: Self.now)
        let batch = [
            Self.post(62, replyTo: 61), Self.post(61, replyTo: 60), Self.post(60), Self.post(52, replyTo: 51),
            Self.post(42, replyTo: 41), Self.post(40, replyTo: 39),
        ]
        #expect(try await database.storeArchived(batch, feed: .posts, account: Self.me, now: Self.now) == ArchiveCounts(new: 6))
        let items = try await database.feedItems(.posts, limit: 20)
        let conversations = Dictionary(uniqueKeysWithValues: items.map { ($0.tweet.id.rawValue, $0.tweet.conversationID?.rawValue) })
        #expect(conversations == [40: 39, 41: 39, 42: 39, 50: 50, 51: 50, 52: 50, 60: 60, 61: 60, 62: 60])
    }

    @Test func theSameArchiveTwiceChangesNothingAndANewerOneAddsWhatIsNew() async throws {
        let database = try await Self.database()
        let posts = (1...5).map { Self.post(Int64($0)) }
        _ = try await database.storeArchived(posts, feed: .posts, account: Self.me, now: Self.now)
        let before = try await Self.dump(database)
        let again = try await database.storeArchived(posts, feed: .posts, account: Self.me, now: Self.now.addingTimeInterval(60))
        #expect(again == ArchiveCounts(unchanged: 5))
        #expect(try await Self.dump(database) == before)
        let newer = try await database.storeArchived(posts + [Self.post(6)], feed: .posts, account: Self.me, now: Self.now)
        #expect(newer == ArchiveCounts(new: 1, unchanged: 5))
        #expect(try await database.feedStats(.posts).tweets == 6)
    }

    /// A post the API stored first keeps the API's author, text and answer, and gains the
    /// tag; a stored text that is a cut of the archive's becomes whole.
    @Test func aPostStoredFromTheAPIKeepsItsFieldsAndGainsTheTag() async throws {
        let database = try await Self.database()
        let api = Tweet(
            id: TweetID(20), authorID: Self.me, createdAt: Date(timeIntervalSince1970: 5), text: "as the API said it",
            conversationID: TweetID(20), rawJSON: #"{"id":"20","public_metrics":{"like_count":3}}"#
        )
        let cut = Tweet(
            id: TweetID(21), authorID: Self.me, createdAt: Date(timeIntervalSince1970: 6), text: "the start of a long…",
            conversationID: TweetID(21), rawJSON: #"{"id":"21"}"#
        )
        try await database.storePage(
            TimelinePage(tweets: [api, cut], authors: [Author(id: Self.me, username: "me", name: "Me")], nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Self.now
        )
        let counts = try await database.storeArchived(
            [Self.post(20, text: "the archive's words"), Self.post(21, text: "the start of a long post, whole")],
            feed: .posts, account: Self.me, now: Self.now
        )
        #expect(counts == ArchiveCounts(updated: 2))
        let items = try await database.feedItems(.posts, limit: 10)
        #expect(items.map(\.feeds) == [[.home, .posts], [.home, .posts]])
        #expect(items.map(\.tweet.text) == ["the start of a long post, whole", "as the API said it"])
        #expect(items.last?.tweet.createdAt == Date(timeIntervalSince1970: 5))
        let raw = try await database.read { db in try String.fetchOne(db, sql: "SELECT raw FROM tweet WHERE id = 20") }
        #expect(raw == api.rawJSON)
        let again = try await database.storeArchived(
            [Self.post(20, text: "the archive's words"), Self.post(21, text: "the start of a long post, whole")],
            feed: .posts, account: Self.me, now: Self.now
        )
        #expect(again == ArchiveCounts(unchanged: 2))
    }

    /// A like is dated by its id and has no author: `feed --json` says `"author": null`.
    @Test func aLikeIsDatedByItsIDAndHasNoAuthor() async throws {
        let database = try await Self.database()
        let counts = try await database.storeArchived(
            [Self.like(Self.likedID, text: "<b>liked</b> & shared")], feed: .likes, account: Self.me, now: Self.now)
        #expect(counts == ArchiveCounts(new: 1))
        let item = try #require(try await database.feedItems(.likes, limit: 10).first)
        #expect(item.author == nil)
        #expect(Timestamp.iso8601Milliseconds(item.tweet.createdAt) == "2022-03-22T13:51:39.899Z")
        var out: [UInt8] = []
        item.appendJSON(to: &out)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any])
        #expect(json["author"] is NSNull)
        #expect(json["feeds"] as? [String] == ["likes"])
        #expect(json["text"] as? String == "<b>liked</b> & shared")
    }

    /// A post first stored as a like (an older archive, no author, a cut text) that a
    /// later archive's posts say is yours takes your id and its whole text.
    @Test func aLikedPostOfYourOwnTakesItsAuthorFromYourPosts() async throws {
        let database = try await Self.database()
        _ = try await database.storeArchived([Self.like(TweetID(50), text: "my own words, cut…")], feed: .likes, account: Self.me, now: Self.now)
        let counts = try await database.storeArchived(
            [Self.post(50, text: "my own words, cut short by the like")], feed: .posts, account: Self.me, now: Self.now)
        #expect(counts == ArchiveCounts(updated: 1))
        let item = try #require(try await database.feedItems(.posts, limit: 1).first)
        #expect(item.tweet.authorID == Self.me && item.feeds == [.posts, .likes])
        #expect(item.tweet.text == "my own words, cut short by the like")
    }

    /// Retention never prunes an imported post or like, even one also in home; home's
    /// own old posts go as before.
    @Test func retentionKeepsPostsAndLikes() async throws {
        let database = try await Self.database()
        try await database.storePage(
            TimelinePage(
                tweets: [Self.post(1), Self.post(2), Self.post(3)], authors: [Author(id: Self.me, username: "me", name: "Me")],
                nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Self.now
        )
        _ = try await database.storeArchived([Self.post(2), Self.post(4)], feed: .posts, account: Self.me, now: Self.now)
        _ = try await database.storeArchived([Self.like(Self.likedID, text: "old like")], feed: .likes, account: Self.me, now: Self.now)
        let batch = try await database.pruneBatch(olderThan: Self.now, after: .start, limit: 100)
        #expect(batch.deletedTweets == 2)
        let left = try await database.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM tweet ORDER BY id") }
        #expect(left == [2, 4, Self.likedID.rawValue])
    }

    /// One batch as an archive gives it, newest first: new posts, a post stored before,
    /// a like of your own stored with a cut text, and a post listed twice. Each is
    /// counted once as what happened to it, and every new post is searchable.
    @Test func aMixedBatchCountsEachPostOnceAndIndexesTheNewOnes() async throws {
        let database = try await Self.database()
        _ = try await database.storeArchived([Self.post(3, text: "stored before")], feed: .posts, account: Self.me, now: Self.now)
        _ = try await database.storeArchived([Self.like(TweetID(4), text: "my own words, cut…")], feed: .likes, account: Self.me, now: Self.now)
        let batch = [
            Self.post(6, text: "sixth towpath"), Self.post(5, text: "fifth towpath"), Self.post(4, text: "my own words, cut short by the like"),
            Self.post(3, text: "stored before"), Self.post(6, text: "sixth towpath"), Self.post(2, text: "second towpath", replyTo: 1),
        ]
        let counts = try await database.storeArchived(batch, feed: .posts, account: Self.me, now: Self.now)
        #expect(counts == ArchiveCounts(new: 3, updated: 1, unchanged: 2))
        #expect(try await database.feedStats(.posts).tweets == 5)
        let found = try await database.search(try SearchQuery(parsing: "towpath"), feed: .posts, limit: 10)
        #expect(found.map(\.tweet.id) == [TweetID(6), TweetID(5), TweetID(2)])
        let mine = try await database.search(try SearchQuery(parsing: "short"), feed: .posts, limit: 10)
        #expect(mine.map(\.tweet.id) == [TweetID(4)])
        #expect(try await database.storeArchived(batch, feed: .posts, account: Self.me, now: Self.now) == ArchiveCounts(unchanged: 6))
    }

    @Test func aDryRunCountsAndStoresNothing() async throws {
        let database = try await Self.database()
        let before = try await Self.dump(database)
        let counts = try await database.storeArchived(
            [Self.post(1), Self.post(2)], feed: .posts, account: Self.me, now: Self.now, dryRun: true)
        #expect(counts == ArchiveCounts(new: 2))
        #expect(try await Self.dump(database) == before)
    }

    /// A photo of the archive finds the picture its post shows by the URL's last part.
    @Test func anArchivedPhotoIsMatchedByItsMediaName() async throws {
        let database = try await Self.database()
        let photo = Media(key: "3_1", kind: .photo, imageURL: "https://pbs.twimg.com/media/Ab-c_1.png")
        _ = try await database.storeArchived([Self.post(7, media: [photo])], feed: .posts, account: Self.me, now: Self.now)
        let found = try #require(try await database.archivedPhoto(tweet: TweetID(7), mediaName: "Ab-c_1.png"))
        #expect(found.url == photo.imageURL && found.file == nil)
        #expect(try await database.archivedPhoto(tweet: TweetID(7), mediaName: "other.png") == nil)
        #expect(try await database.archivedPhoto(tweet: TweetID(8), mediaName: "Ab-c_1.png") == nil)
    }

    /// Every table's rows, as text: what "changes nothing" compares.
    static func dump(_ database: AppDatabase) async throws -> [String] {
        try await database.read { db in
            var lines: [String] = []
            for table in ["tweet", "feedMembership", "feedCount", "media", "link", "photo", "user", "account"] {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2") { lines.append("\(table) \(row)") }
            }
            return lines
        }
    }
}
