import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedStore
import TwfeedTesting
import TwfeedBilling

/// What a tweet points at, as the store keeps and reads it: media rows, a repost's
/// original, a quote, a reply's parent, and the conversation around a post.
@Suite final class GraphStoreTests {
    /// Where each test's database lives; removed after the test.
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder(prefix: "twfeed-graph") }

    static let ada = Author(id: UserID(1), username: "ada", name: "Ada", profileImageURL: nil)
    static let bob = Author(id: UserID(2), username: "bob", name: "Bob", profileImageURL: nil)

    static func tweet(_ id: Int64, by author: Author = ada, text: String? = nil, replyTo: Int64? = nil, retweetOf: Int64? = nil,
                      quoted: Int64? = nil, media: [Media] = []) -> Tweet {
        Tweet(id: TweetID(id), authorID: author.id, createdAt: Date(timeIntervalSince1970: Double(id)), text: text ?? "post \(id)",
              inReplyToID: replyTo.map(TweetID.init), retweetOfID: retweetOf.map(TweetID.init), quotedID: quoted.map(TweetID.init),
              conversationID: TweetID(1), media: media)
    }

    func fresh() throws -> AppDatabase {
        try AppDatabase.open(path: scratch.path + "/twfeed.sqlite")
    }

    func store() async throws -> AppDatabase {
        let database = try fresh()
        let photo = Media(key: "3_9", kind: .photo, imageURL: "https://pbs.twimg.com/media/p.jpg", width: 800, height: 600, altText: "a cat")
        let gif = Media(key: "16_9", kind: .animatedGIF, imageURL: "https://pbs.twimg.com/tweet_video_thumb/g.jpg", width: 320, height: 240)
        // A chain 1 <- 2 <- 3 (3 in home) with replies 4 and 5 to 3; 7 replies to 6, which is not stored;
        // 8 reposts 2; 9 quotes 3 and carries media; 10 quotes 11, which is not stored.
        let referenced = [Self.tweet(1), Self.tweet(2, by: Self.bob, replyTo: 1, quoted: 1)]
        let members = [
            Self.tweet(3, text: String(repeating: "long ", count: 100), replyTo: 2), Self.tweet(4, by: Self.bob, replyTo: 3), Self.tweet(5, replyTo: 3),
            Self.tweet(7, replyTo: 6), Self.tweet(8, by: Self.bob, text: "RT @bob: post 2", retweetOf: 2), Self.tweet(9, quoted: 3, media: [photo, gif]),
            Self.tweet(10, quoted: 11),
        ]
        _ = try await database.storePage(
            TimelinePage(tweets: members, referencedTweets: referenced, authors: [Self.ada, Self.bob], nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Date())
        return database
    }

    func item(_ database: AppDatabase, _ id: Int64) async throws -> FeedItem {
        try #require(try await database.feedItems(.home, limit: 50).first { $0.tweet.id == TweetID(id) })
    }

    /// A repost stored from a page that left its original out keeps the cut "RT @…" text
    /// only until a lookup brings the original: then its text is the original's whole one.
    @Test func aLookupOfTheOriginalMakesAnEarlierRepostsTextWhole() async throws {
        let database = try fresh()
        let cut = Self.tweet(21, by: Self.bob, text: "RT @ada: the start of a long po…", retweetOf: 20)
        _ = try await database.storePage(
            TimelinePage(tweets: [cut], referencedTweets: [], authors: [Self.bob], nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Date())
        #expect(try await item(database, 21).tweet.text == "RT @ada: the start of a long po…")
        let whole = String(repeating: "the start of a long post, whole ", count: 10)
        try await database.storeLookup(
            found: TimelinePage(tweets: [Self.tweet(20, text: whole)], authors: [Self.ada], nextPageToken: nil),
            unavailable: [:], asked: [TweetID(20)], now: Date(), bill: BillableAnswer(source: .lookups), prices: .published)
        let repost = try await item(database, 21)
        #expect(repost.tweet.text == "RT @ada: " + whole)
        #expect(repost.retweetOf?.tweet.text == whole)
    }

    @Test func aFeedItemCarriesWhatItPointsAtOneLevel() async throws {
        let database = try await store()
        let repost = try await item(database, 8)
        #expect(repost.retweetOf?.tweet.id == TweetID(2) && repost.retweetOf?.author?.username == "bob")
        #expect(repost.shown.tweet.text == "post 2")
        #expect(repost.quoted?.tweet.id == TweetID(1), "the original's quote")
        #expect(repost.inReplyTo == ReplyContext(id: TweetID(1), stored: true, username: "ada", excerpt: "post 1"))
        #expect(repost.faults.isEmpty)

        let quote = try await item(database, 9)
        #expect(quote.quoted?.tweet.id == TweetID(3))
        #expect(quote.media.map(\.media.kind) == [.photo, .animatedGIF])
        #expect(quote.media.first?.media.altText == "a cat" && quote.media.first?.media.width == 800)

        let reply = try await item(database, 4)
        #expect(reply.inReplyTo?.username == "ada")
        #expect(reply.inReplyTo?.excerpt?.count == ReplyContext.excerptLength && reply.inReplyTo?.excerpt?.hasSuffix("…") == true)

        // What is not stored is a fault, by id.
        #expect(try await item(database, 7).faults == [TweetID(6)])
        #expect(try await item(database, 10).faults == [TweetID(11)])
    }

    /// The original, the quote and the parent come joined to the feed's row: a repost of
    /// a post not stored shows its own quote and parent, the joined posts bring their
    /// media, and a post read by id (search, the conversation) is the same item.
    @Test func theJoinedPostsAreTheShownPostsWithTheirMedia() async throws {
        let database = try await store()
        let photo = Media(key: "3_7", kind: .photo, imageURL: "https://pbs.twimg.com/media/q.jpg", width: 10, height: 20)
        // 12 has a photo and is quoted by 13, which 14 reposts; 15 reposts 16 (not stored) and itself quotes 12 and answers 3.
        _ = try await database.storePage(
            TimelinePage(tweets: [Self.tweet(14, by: Self.bob, retweetOf: 13), Self.tweet(15, replyTo: 3, retweetOf: 16, quoted: 12)],
                         referencedTweets: [Self.tweet(12, by: Self.bob, media: [photo]), Self.tweet(13, quoted: 12, media: [photo])],
                         authors: [Self.ada, Self.bob], nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Date())
        let repost = try await item(database, 14)
        #expect(repost.retweetOf?.media.map(\.media) == [photo] && repost.quoted?.tweet.id == TweetID(12))
        #expect(repost.quoted?.media.map(\.media) == [photo] && repost.quoted?.author?.username == "bob")
        #expect(repost.media.isEmpty && repost.inReplyTo == nil && repost.faults.isEmpty)
        let dangling = try await item(database, 15)
        #expect(dangling.retweetOf == nil && dangling.faults == [TweetID(16)])
        #expect(dangling.quoted?.tweet.id == TweetID(12), "the repost's own quote, its original being absent")
        #expect(dangling.inReplyTo?.stored == true && dangling.inReplyTo?.username == "ada")
        for id: Int64 in [8, 9, 14, 15] {
            #expect(try await database.feedItem(TweetID(id)) == item(database, id))
        }
    }

    /// A feed's items carry every feed that holds them (the other feeds' tags are
    /// walked alongside the feed, not probed per tweet), on any page.
    @Test func eachItemCarriesEveryFeedThatHoldsIt() async throws {
        let database = try fresh()
        let tweets = (100..<160).map { Self.tweet(Int64($0)) }
        func store(_ feed: Feed, _ ids: [Int]) async throws {
            _ = try await database.storePage(TimelinePage(tweets: ids.map { tweets[$0] }, authors: [Self.ada], nextPageToken: nil),
                                             feed: feed, state: SyncState(feed: feed), now: Date())
        }
        try await store(.home, Array(0..<50))
        try await store(.mentions, [0, 3, 49, 55, 59])
        try await store(.retweets, [3, 10, 11, 52])
        for feed in Feed.allCases {
            for before: Int64? in [nil, 111, 104, 101] {
                let items = try await database.feedItems(feed, limit: 7, before: before.map(TweetID.init))
                for item in items {
                    #expect(item.feeds == (try await database.feedItem(item.tweet.id))?.feeds, "\(feed) \(item.tweet.id)")
                    #expect(item.feeds.contains(feed))
                }
            }
        }
        #expect(try await database.feedItems(.mentions, limit: 10).map(\.feeds) == [[.mentions], [.mentions], [.home, .mentions], [.home, .mentions, .retweets], [.home, .mentions]])
    }

    @Test func mediaAreKeptWhenATweetComesBackWithoutThem() async throws {
        let database = try await store()
        _ = try await database.storePage(TimelinePage(tweets: [Self.tweet(9, quoted: 3)], authors: [Self.ada], nextPageToken: nil),
                                         feed: .home, state: SyncState(feed: .home), now: Date())
        #expect(try await item(database, 9).media.count == 2)
        // And replaced when they come again, fewer.
        let one = Media(key: "3_9", kind: .photo, imageURL: "https://pbs.twimg.com/media/p.jpg")
        _ = try await database.storePage(TimelinePage(tweets: [Self.tweet(9, quoted: 3, media: [one])], authors: [Self.ada], nextPageToken: nil),
                                         feed: .home, state: SyncState(feed: .home), now: Date())
        #expect(try await item(database, 9).media.map(\.media) == [one])
    }

    @Test func aConversationIsItsAncestorsRootLastAndItsReplies() async throws {
        let database = try await store()
        let conversation = try #require(try await database.conversation(TweetID(3)))
        #expect(conversation.tweet.tweet.id == TweetID(3))
        #expect(conversation.ancestors.map { if case .stored(let item) = $0 { item.tweet.id.rawValue } else { Int64(-1) } } == [Int64(2), 1])
        #expect(conversation.replies.map(\.tweet.id) == [TweetID(4), TweetID(5)])

        let broken = try #require(try await database.conversation(TweetID(7)))
        #expect(broken.ancestors == [.missing(TweetID(6), unavailable: nil)])
        #expect(try await database.conversation(TweetID(6)) == nil, "not stored")
        // A parent that is not in any feed is a post of its own all the same.
        #expect(try await database.conversation(TweetID(1))?.replies.map(\.tweet.id) == [TweetID(2)])
    }

    @Test func aLoopInTheRepliesEndsTheWalk() async throws {
        let database = try fresh()
        _ = try await database.storePage(
            TimelinePage(tweets: [Self.tweet(21, replyTo: 22), Self.tweet(22, replyTo: 21)], authors: [Self.ada], nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Date())
        let conversation = try #require(try await database.conversation(TweetID(21)))
        #expect(conversation.ancestors.count == 1)
    }
}
