import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Mustache
import Testing
import TwfeedBilling
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedReader
@testable import TwfeedStore
import TwfeedTesting

/// The pages write each tweet with `TweetHTML`, by code. For every shape a tweet takes
/// (a repost, a quote, a reply, media of each kind, faults, links, hostile text, a post
/// deleted and posts pointing at a deleted one), its
/// markup is Tests/Golden/tweets.html byte for byte, and a page and an Atom feed around
/// them are page.html and home.atom (`GoldenFile` says how to rewrite them).
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
        // The account deleted it: no text, no photos, no Reply; and what points at one.
        var deleted = FeedItem(tweet: tweet(8, "gone \(hostile)", quoted: 15), feeds: [.home, .posts], author: ada, avatarPath: nil)
        deleted.tweet.deletedAt = now
        deleted.media = [photo]
        deleted.quoted = EmbeddedTweet(tweet: tweet(15, "quoted <i>", author: mallory), author: mallory, avatarPath: nil, media: [])
        var answersDeleted = FeedItem(tweet: tweet(9, "quoting a deleted one", replyTo: 80, quoted: 81), feeds: [.home], author: mallory,
                                      avatarPath: nil)
        answersDeleted.inReplyTo = ReplyContext(id: TweetID(80), stored: true, username: "ada", excerpt: nil, deleted: true)
        var gone = tweet(81, "the quoted text \(hostile)")
        gone.deletedAt = now
        answersDeleted.quoted = EmbeddedTweet(tweet: gone, author: ada, avatarPath: nil, media: [photo])
        // A reply whose parent is gone: whom it answers, as its answer said, and why the parent is not shown.
        var namedOrphan = FeedItem(tweet: tweet(10, "named orphan", replyTo: 100), feeds: [.mentions], author: ada, avatarPath: nil)
        namedOrphan.inReplyTo = ReplyContext(id: TweetID(100), stored: false, username: "b<o>b", excerpt: nil)
        namedOrphan.unavailable = [TweetID(100): "Not Found Error"]
        return [plain, repost, missingRepost, quote, quoteMissing, orphan, emptyExcerpt, deleted, answersDeleted, namedOrphan]
    }

    static let links: [TweetID: [TweetLink]] = [
        TweetID(1): [TweetLink(url: "https://t.co/abc", expandedURL: "https://example.com/a?b=1&c=\"2\"", displayURL: "example.com/a…")]
    ]

    @Test func theMarkupIsTheGoldenFile() throws {
        let html = Self.items.map { TweetHTML.render(TweetModel($0, links: Self.links, now: Self.now)) }
        let mismatch = GoldenFile("tweets.html").mismatch(html.joined(separator: "\n") + "\n")
        #expect(mismatch == nil, "\(mismatch ?? "")")
        #expect(html.allSatisfy { !$0.contains("<script") && !$0.contains("<b>Mal") })
    }

    /// The header of a signed-in page: the account, health, spend, polls.
    static let header = HeaderModel(
        nav: ReaderRoutes.navigation.map { .init(href: $0.0, label: $0.1, current: $0.0 == "/home") },
        query: #"from:ada "a <phrase>""#, account: "@me", signedOutText: nil, accessNote: nil, canSignOut: true, csrf: "token&1",
        healthName: "degraded", healthText: "daemon degraded", healthDetail: "last heartbeat 75 s ago",
        spendText: "API spend: $0.42 today · $3.10 this cycle of $10.00",
        polls: [.init(feed: "home", tweets: 7, lastPoll: TimeModel(Self.now.addingTimeInterval(-90), now: Self.now), error: nil),
                .init(feed: "mentions", tweets: 0, lastPoll: nil, error: "HTTP 503: <over capacity>")]
    )

    /// A feed's page: the header (the account, health, spend, polls), the tweets with a
    /// gap between them and one below, paging.
    @Test func aPageIsTheGoldenFile() throws {
        var tweets = Self.items.map { RenderedTweet(TweetModel($0, links: Self.links, now: Self.now)) }
        let gap = { (newer: Int64, older: Int64) in
            GapMarker(FeedGap(feed: .home, newerThanID: TweetID(newer), olderThanID: TweetID(older), reason: .budget, recordedAt: Self.now),
                      prices: .published, ownsApp: false)
        }
        tweets[3].gapsBefore = [gap(3, 4)]
        var model = PageModel(title: "home", heading: "Home", header: Self.header, message: "A <message>", tweets: tweets)
        model.atomHref = "/feeds/home.atom"
        model.olderHref = "/home?before=7"
        model.trailingGaps = [gap(0, 1)]
        let mismatch = GoldenFile("page.html").mismatch(try PageTemplates.render(model, withTemplate: "page"))
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    @Test func theAtomFeedIsTheGoldenFile() throws {
        let feed = try AtomFeed(feed: .home, account: "99", items: Self.items, links: Self.links, origin: "http://localhost:8765", now: Self.now)
        let mismatch = GoldenFile("home.atom").mismatch(try feed.render())
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    /// A context as the reader's middleware sees one, without a socket.
    struct PlainContext: RequestContext {
        struct Source: RequestContextSource { let logger: Logger }
        var coreContext: CoreRequestContextStorage
        init(source: Source) { coreContext = .init(source: source) }
    }

    /// A page whose template does not render is a 500 naming it, and one line in the
    /// log: never an empty page with status 200.
    @Test func aTemplateThatDoesNotRenderIsA500AndOneLogLine() async throws {
        let sink = MemorySink()
        let logger = Logger(label: "web") { _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
        let headers = ReaderHeaders<PlainContext>(loopbackOnly: true, logger: logger)
        let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/home"),
                              body: .init(buffer: ByteBuffer()))
        let response = try await headers.handle(request, context: PlainContext(source: .init(logger: logger))) { _, _ in
            try ReaderRoutes.html(PageTemplates.render(PageModel(title: "home", heading: "Home", header: Self.header, tweets: []),
                                                       withTemplate: "no-such-page"))
        }
        #expect(response.status == .internalServerError)
        #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
        #expect(sink.lines.count == 1)
        let line = try #require(sink.events("http.render_failed").first)
        #expect(line.contains("path=/home") && line.contains("template=no-such-page") && line.contains("error=no-such-template"), "\(line)")
        // The error says which template, with a code.
        #expect(throws: RenderFailure(.noSuchTemplate, template: "no-such-page")) {
            try PageTemplates.render(PageModel(title: "home", heading: "Home", header: Self.header, tweets: []), withTemplate: "no-such-page")
        }
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
