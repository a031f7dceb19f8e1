import Foundation
import Mustache
import Testing
@testable import TwfeedCore
@testable import TwfeedReader
@testable import TwfeedStore

/// The pages write each tweet with `TweetHTML`, by code; the `tweet` template is its
/// reference. For every shape a tweet takes (a repost, a quote, a reply, media of each
/// kind, faults, links, hostile text), both must give the same bytes.
@Suite struct TweetHTMLTests {
    static let now = Date(timeIntervalSince1970: 1_790_100_000)
    static let hostile = #"<script>alert("x")</script> & 'single' <\#u{301}b>"#
    static let mallory = Author(id: UserID(9), username: "mallory", name: #"<b>Mal</b> "M" & 'co'"#, profileImageURL: nil)
    static let ada = Author(id: UserID(42), username: "ada", name: "Ada", profileImageURL: nil)

    static func tweet(_ id: Int64, _ text: String, author: Author = ada, replyTo: Int64? = nil, retweetOf: Int64? = nil, quoted: Int64? = nil) -> Tweet {
        Tweet(id: TweetID(id), authorID: author.id, createdAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(id)), text: text,
              inReplyToID: replyTo.map(TweetID.init), retweetOfID: retweetOf.map(TweetID.init), quotedID: quoted.map(TweetID.init))
    }

    static let photo = MediaItem(media: Media(key: "3_1", kind: .photo, imageURL: "https://pbs.twimg.com/media/a.jpg", width: 640, height: 480,
                                              altText: hostile), file: "ab/cd.jpg", path: "/cache/ab/cd.jpg")
    static let pendingPhoto = MediaItem(media: Media(key: "3_2", kind: .photo, imageURL: "https://pbs.twimg.com/media/b.jpg"), path: nil)
    static let described = MediaItem(media: Media(key: "3_5", kind: .photo, imageURL: "https://pbs.twimg.com/media/c.jpg", altText: "a <cat>"),
                                     path: nil)
    static let video = MediaItem(media: Media(key: "7_3", kind: .video, imageURL: nil, width: 1280, height: 720), file: "ef/gh.jpg",
                                 path: "/cache/ef/gh.jpg")
    static let gif = MediaItem(media: Media(key: "16_4", kind: .animatedGIF, imageURL: nil, altText: "  "), path: nil)

    static var items: [FeedItem] {
        var plain = FeedItem(tweet: tweet(1, "plain https://t.co/abc and \(hostile) http://bare.example/x."), feeds: [.home, .mentions],
                             author: mallory, avatarPath: "/avatars/ab/x.png")
        plain.media = [photo, pendingPhoto, described]
        var repost = FeedItem(tweet: tweet(2, "RT @ada: the original", author: mallory, retweetOf: 20), feeds: [.home], author: mallory, avatarPath: nil)
        repost.retweetOf = EmbeddedTweet(tweet: tweet(20, "the original \(hostile)", replyTo: 10, quoted: 15), author: ada, avatarPath: nil,
                                         media: [video, gif])
        repost.quoted = EmbeddedTweet(tweet: tweet(15, "quoted <i>", author: mallory), author: mallory, avatarPath: "/avatars/q.png",
                                      media: [photo])
        repost.inReplyTo = ReplyContext(id: TweetID(10), stored: true, username: "bob", excerpt: hostile)
        var missingRepost = FeedItem(tweet: tweet(3, "RT @gone: …", retweetOf: 30), feeds: [.retweets], author: ada, avatarPath: nil)
        missingRepost.unavailable = [TweetID(30): "deleted"]
        var quote = FeedItem(tweet: tweet(4, "look", quoted: 40), feeds: [], author: nil, avatarPath: nil)
        quote.quoted = EmbeddedTweet(tweet: tweet(40, ""), author: nil, avatarPath: nil, media: [])
        let quoteMissing = FeedItem(tweet: tweet(5, "look at this", quoted: 50), feeds: [.home], author: ada, avatarPath: nil)
        var orphan = FeedItem(tweet: tweet(6, "orphan", replyTo: 60), feeds: [.home], author: ada, avatarPath: nil)
        orphan.inReplyTo = ReplyContext(id: TweetID(60), stored: false, username: nil, excerpt: nil)
        var emptyExcerpt = FeedItem(tweet: tweet(7, "answer", replyTo: 70), feeds: [.home], author: ada, avatarPath: nil)
        emptyExcerpt.inReplyTo = ReplyContext(id: TweetID(70), stored: true, username: nil, excerpt: "")
        return [plain, repost, missingRepost, quote, quoteMissing, orphan, emptyExcerpt]
    }

    static let links: [TweetID: [TweetLink]] = [
        TweetID(1): [TweetLink(url: "https://t.co/abc", expandedURL: "https://example.com/a?b=1&c=\"2\"", displayURL: "example.com/a…")]
    ]

    @Test(arguments: items) func theWriterGivesTheTemplatesBytes(_ item: FeedItem) throws {
        let model = TweetModel(item, links: Self.links, now: Self.now)
        let template = try #require(PageTemplates.library.render(model, withTemplate: "tweet"))
        #expect(TweetHTML.render(model) == template)
        #expect(!TweetHTML.render(model).contains("<script") && !TweetHTML.render(model).contains("<b>Mal"))
    }

    /// What the pages print for a tweet is the writer's markup, as it is.
    @Test func thePagesWriteTheRenderedTweetAsItIs() throws {
        let model = TweetModel(Self.items[1], links: Self.links, now: Self.now)
        let rendered = RenderedTweet(model)
        #expect(PageTemplates.library.render(rendered, withTemplate: "tweetHTML") == rendered.html)
    }

    @Test func escapingReplacesTheFiveCharactersAsTheLibraryDoes() throws {
        let text = #"a <b> & "c" 'd' café 🇫🇷"#
        let library = try MustacheTemplate(string: "{{value}}").render(["value": text])
        #expect(PageEscaping.escape(text) == library)
        #expect(PageEscaping.escape("nothing to escape") == "nothing to escape")
        #expect(PageEscaping.escape("<\u{301}b>") == "&lt;\u{301}b&gt;", "a combining mark after < does not hide it")
    }
}
