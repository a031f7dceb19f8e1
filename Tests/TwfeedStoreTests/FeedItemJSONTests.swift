import Foundation
import Testing
import TwfeedBase
@testable import TwfeedCore
@testable import TwfeedStore
import TwfeedTesting

/// `feed --json`, `/api/feed` and `show --json` print `FeedItem.appendJSON`, written
/// byte by byte for speed; Tests/Golden holds what it writes for every shape a post
/// takes, byte for byte (`GoldenFile` says how to rewrite them).
@Suite struct FeedItemJSONTests {
    static let items: [FeedItem] = [
        FeedItem(tweet: Tweet(id: TweetID(1_500_000_000_000_000_001), authorID: UserID(42),
                              createdAt: Date(timeIntervalSince1970: 1_764_000_000.75), text: "plain text"),
                 feeds: [.home], author: Author(id: UserID(42), username: "ada", name: "Ada Lovelace", profileImageURL: nil),
                 avatarPath: "/cache/ab/cd/abcd.jpg"),
        FeedItem(tweet: Tweet(id: TweetID(7), authorID: UserID(9), createdAt: Date(timeIntervalSince1970: -5),
                              text: "quote \" backslash \\ newline \n tab \t bell \u{07} <b>&amp;</b> café 🇫🇷 \u{202E}",
                              inReplyToID: TweetID(6), retweetOfID: TweetID(5), quotedID: TweetID(4)),
                 feeds: [.home, .mentions, .retweets], author: nil, avatarPath: nil),
        FeedItem(tweet: Tweet(id: TweetID(Int64.max), authorID: UserID(1), createdAt: Date(timeIntervalSince1970: 0), text: ""),
                 feeds: [], author: Author(id: UserID(1), username: "x\"y", name: "", profileImageURL: "https://e/x.png"),
                 avatarPath: nil),
        Self.graphItem,
        Self.quoteItem,
        Self.namedOrphanItem,
    ]

    /// A reply whose parent is not stored, named by whom its answer said it answers,
    /// quoting a post whose own parent is not stored either (no context is read for a
    /// quote's parent: its answer's word alone).
    static var namedOrphanItem: FeedItem {
        var item = FeedItem(tweet: Tweet(id: TweetID(60), authorID: UserID(42), createdAt: Date(timeIntervalSince1970: 60), text: "@bob agreed",
                                         inReplyToID: TweetID(55), repliedUser: RepliedUser(username: "bob"), quotedID: TweetID(56),
                                         conversationID: TweetID(55)),
                            feeds: [.mentions], author: Author(id: UserID(42), username: "ada", name: "Ada"), avatarPath: nil)
        item.quoted = EmbeddedTweet(tweet: Tweet(id: TweetID(56), authorID: UserID(9), createdAt: Date(timeIntervalSince1970: 56),
                                                 text: "@cy no", inReplyToID: TweetID(57), repliedUser: RepliedUser(id: UserID(3), mentioned: "cy"),
                                                 conversationID: TweetID(57)),
                                    author: nil, avatarPath: nil, media: [])
        item.inReplyTo = ReplyContext(id: TweetID(55), stored: false, username: "bob", excerpt: nil)
        return item
    }

    /// A quote of a stored post (with a photo), with a GIF of its own, replying to a
    /// post not stored.
    static var quoteItem: FeedItem {
        var item = FeedItem(tweet: Tweet(id: TweetID(50), authorID: UserID(9), createdAt: Date(timeIntervalSince1970: 50), text: "look",
                                         inReplyToID: TweetID(45), quotedID: TweetID(40), conversationID: TweetID(45)),
                            feeds: [.home, .mentions], author: nil, avatarPath: nil)
        item.quoted = EmbeddedTweet(tweet: Tweet(id: TweetID(40), authorID: UserID(42), createdAt: Date(timeIntervalSince1970: 40),
                                                 text: "the \"quoted\" one", inReplyToID: TweetID(39)),
                                    author: Author(id: UserID(42), username: "ada", name: "Ada", profileImageURL: nil), avatarPath: "/a/b.png",
                                    media: [MediaItem(media: Media(key: "3_8", kind: .photo, imageURL: nil, width: 10, height: nil, altText: nil),
                                                      path: nil)])
        item.inReplyTo = ReplyContext(id: TweetID(45), stored: false, username: nil, excerpt: nil)
        item.media = [MediaItem(media: Media(key: "16_9", kind: .animatedGIF, imageURL: "https://e/g.jpg", width: nil, height: 100), path: "/m/g.jpg")]
        return item
    }

    /// A repost whose original quotes a post, replies to a stored parent and has a photo
    /// and a video.
    static var graphItem: FeedItem {
        let ada = Author(id: UserID(42), username: "ada", name: "Ada", profileImageURL: nil)
        var item = FeedItem(tweet: Tweet(id: TweetID(30), authorID: UserID(9), createdAt: Date(timeIntervalSince1970: 30),
                                         text: "RT @ada: the original", retweetOfID: TweetID(20), conversationID: TweetID(30)),
                            feeds: [.home], author: nil, avatarPath: nil)
        let photo = MediaItem(media: Media(key: "3_1", kind: .photo, imageURL: "https://pbs.twimg.com/media/a.jpg", width: 640, height: 480,
                                           altText: "a \"quoted\" cat"), path: "/media/ab/cd.jpg")
        let video = MediaItem(media: Media(key: "7_2", kind: .video, imageURL: nil), path: nil)
        item.retweetOf = EmbeddedTweet(tweet: Tweet(id: TweetID(20), authorID: UserID(42), createdAt: Date(timeIntervalSince1970: 20),
                                                    text: "the original", inReplyToID: TweetID(10), quotedID: TweetID(15),
                                                    conversationID: TweetID(10)),
                                       author: ada, avatarPath: nil, media: [photo, video])
        item.quoted = EmbeddedTweet(tweet: Tweet(id: TweetID(15), authorID: UserID(42), createdAt: Date(timeIntervalSince1970: 15), text: "quoted <b>"),
                                    author: ada, avatarPath: nil, media: [])
        item.inReplyTo = ReplyContext(id: TweetID(10), stored: true, username: "bob", excerpt: "the parent")
        item.media = [photo]
        return item
    }

    static func text(_ item: FeedItem) -> String {
        var bytes: [UInt8] = []
        item.appendJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The contract's shape (INTERFACE.md, "Conversations, photos, long posts").
    @Test func aRepostCarriesItsOriginalWithTheQuoteParentAndMedia() throws {
        let object = try JSONValue.parse(Self.text(Self.graphItem))
        #expect(object["id"] == .string("30") && object["retweetOfId"] == .string("20") && object["conversationId"] == .string("30"))
        let original = try #require(object["retweetOf"])
        #expect(original["id"] == .string("20") && original["author"]?["username"] == .string("ada"))
        #expect(original["quoted"]?["text"] == .string("quoted <b>"))
        #expect(original["inReplyTo"] == .object(["id": .string("10"), "username": .string("bob")]))
        guard case .array(let media)? = original["media"], media.count == 2 else { Issue.record("no media: \(original)"); return }
        #expect(media[0]["type"] == .string("photo") && media[0]["width"] == .number("640") && media[0]["path"] == .string("/media/ab/cd.jpg"))
        #expect(media[1]["type"] == .string("video") && media[1]["path"] == .null && media[1]["altText"] == .null)
        #expect(object["quoted"] == .null, "the quote belongs to the original")
        #expect(object["inReplyTo"] == .null, "a repost itself replies to nothing")
        guard case .array(let own)? = object["media"], let first = own.first else { Issue.record("no media"); return }
        #expect(first["altText"] == .string("a \"quoted\" cat"))
    }

    /// A reply whose parent is not stored says whom it answers (INTERFACE.md: `inReplyTo`
    /// is `{"id", "username"}`), and so does a quoted post's own parent.
    @Test func aReplyWhoseParentIsNotStoredStillNamesWhomItAnswers() throws {
        let object = try JSONValue.parse(Self.text(Self.namedOrphanItem))
        #expect(object["inReplyTo"] == .object(["id": .string("55"), "username": .string("bob")]))
        #expect(object["quoted"]?["inReplyTo"] == .object(["id": .string("57"), "username": .string("cy")]))
    }

    /// Every shape, one object a line, as `feed --json` prints them.
    @Test func theItemsAreTheGoldenFile() throws {
        let lines = Self.items.map(Self.text)
        let mismatch = GoldenFile("feed-items.jsonl").mismatch(lines.joined(separator: "\n") + "\n")
        #expect(mismatch == nil, "\(mismatch ?? "")")
        for (item, line) in zip(Self.items, lines) {
            // JSON a standard parser reads back to the same text.
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["text"] as? String == item.tweet.text)
        }
    }

    /// `show --json`: stored ancestors, one not fetched yet and one the API called
    /// gone, and the replies, each post as `feed --json` writes it.
    static let conversation = Conversation(
        tweet: items[4],
        ancestors: [.stored(items[0]), .missing(TweetID(45), unavailable: nil),
                    .missing(TweetID(44), unavailable: "Not Found Error: \"gone\" \\ [44]")],
        replies: [items[1], items[3]]
    )

    @Test func aConversationIsTheGoldenFile() throws {
        var bytes: [UInt8] = []
        Self.conversation.appendJSON(to: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        let mismatch = GoldenFile("show.json").mismatch(text + "\n")
        #expect(mismatch == nil, "\(mismatch ?? "")")
        let object = try JSONValue.parse(text)
        #expect(object["ancestors"]?.array?.map { $0["id"] } == [.string("1500000000000000001"), .string("45"), .string("44")])
        #expect(object["ancestors"]?.array?[1] == .object(["id": .string("45"), "missing": .bool(true), "unavailable": .null]))
        #expect(object["replies"]?.array?.count == 2 && object["tweet"]?["id"] == .string("50"))
    }

    @Test func feedsComeInTheContractsOrderEachOnce() {
        #expect(Feed.list("retweets,home,home") == [.home, .retweets])
        #expect(Feed.list(nil) == [])
        #expect(Feed.list("bogus,mentions") == [.mentions])
    }
}
