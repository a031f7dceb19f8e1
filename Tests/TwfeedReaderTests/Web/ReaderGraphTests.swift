import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedReader
@testable import TwfeedStore
import TwfeedBilling
import TwfeedTesting

/// The pages show what a tweet points at: a repost as its original by its author, a
/// quote as a card, a reply with whom it answers, a conversation at `/tweet/ID`; what is
/// not stored as "not fetched yet"; nothing of it as markup.
@Suite(.serialized)
struct ReaderGraphTests {
    static let carol = Author(id: UserID(3), username: "carol", name: #"<i>Carol</i> "C""#, profileImageURL: nil)

    /// 3001 <- 3002 <- 3003 (home); 3004 reposts 3003; 3005 quotes 3001 (hostile text) with a photo; 3006 replies to 3000 (not stored).
    static func addGraph(_ world: ReaderHarness) async throws {
        func tweet(_ id: Int64, text: String, replyTo: Int64? = nil, retweetOf: Int64? = nil, quoted: Int64? = nil, media: [Media] = []) -> Tweet {
            Tweet(id: TweetID(id), authorID: carol.id, createdAt: Date(timeIntervalSince1970: 1_790_010_000 + Double(id)), text: text,
                  inReplyToID: replyTo.map(TweetID.init), retweetOfID: retweetOf.map(TweetID.init), quotedID: quoted.map(TweetID.init),
                  media: media)
        }
        let photo = Media(key: "3_1", kind: .photo, imageURL: "https://pbs.twimg.com/media/x.jpg", width: 600, height: 400,
                          altText: "<script>alert(5)</script>")
        let referenced = [tweet(3001, text: ReaderHarness.hostileText), tweet(3002, text: "the middle", replyTo: 3001)]
        let members = [
            tweet(3003, text: "the answer", replyTo: 3002), tweet(3004, text: "RT @carol: the answer", retweetOf: 3003),
            tweet(3005, text: "look at this", quoted: 3001, media: [photo]), tweet(3006, text: "orphan", replyTo: 3000),
        ]
        _ = try await world.database.storePage(
            TimelinePage(tweets: members, referencedTweets: referenced, authors: [carol, ReaderHarness.alice], nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Date())
    }

    static func li(_ page: String, _ id: Int64) -> String? {
        guard let start = page.range(of: #"data-id="\#(id)">"#) else { return nil }
        let rest = page[start.upperBound...]
        return rest.range(of: "</li>").map { String(rest[..<$0.lowerBound]) }
    }

    @Test func aRepostAQuoteAndAReplyShowWhatTheyPointAt() async throws {
        let world = try await ReaderHarness()
        try await Self.addGraph(world)
        try await world.withReader { reader in
            let page = try await reader.request("/home").text
            let repost = try #require(Self.li(page, 3004))
            #expect(repost.contains(#"<p class="reposted">reposted by"#))
            #expect(repost.contains("<p class=\"text\">the answer</p>"), "the original's text, not the RT line")
            #expect(repost.contains(#"href="/compose?reply_to=3003""#), "a reply answers the original")
            let quote = try #require(Self.li(page, 3005))
            #expect(quote.contains(#"<blockquote class="quoted" data-id="3001">"#))
            #expect(quote.contains("&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;"), "quoted text is text")
            #expect(quote.contains("&lt;i&gt;Carol&lt;/i&gt;"), "the quoted author's name is text")
            #expect(quote.contains("photo not cached yet: &lt;script&gt;alert(5)&lt;/script&gt;"))
            let reply = try #require(Self.li(page, 3003))
            #expect(reply.contains(#"replying to <a href="/tweet/3002">@carol</a>: <span class="excerpt">the middle</span>"#))
            let orphan = try #require(Self.li(page, 3006))
            #expect(orphan.contains(#"<a href="/tweet/3000">post 3000, not fetched yet</a>"#))
            #expect(!page.contains("<script>") && !page.contains("<i>Carol"))
        }
    }

    /// A reply's line of its parent shows the parent's link as the parent's own text
    /// does on the page: by its display URL, not the `t.co` link stored in the text.
    @Test func aRepliesLineShowsTheParentsLinkAsTheParentDoes() async throws {
        let world = try await ReaderHarness()
        let raw = #"{"id":"3101","entities":{"urls":[{"url":"https://t.co/Parent0001","expanded_url":"https://example.com/article","display_url":"example.com/article"}]}}"#
        let parent = Tweet(id: TweetID(3101), authorID: Self.carol.id, createdAt: Date(timeIntervalSince1970: 1_790_020_000),
                           text: "Read https://t.co/Parent0001 now",
                           links: [TweetLink(url: "https://t.co/Parent0001", expandedURL: "https://example.com/article", displayURL: "example.com/article")],
                           rawJSON: raw)
        let reply = Tweet(id: TweetID(3102), authorID: Self.carol.id, createdAt: Date(timeIntervalSince1970: 1_790_020_100),
                          text: "done", inReplyToID: TweetID(3101))
        _ = try await world.database.storePage(
            TimelinePage(tweets: [reply], referencedTweets: [parent], authors: [Self.carol], nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Date())
        try await world.withReader { reader in
            let page = try await reader.request("/tweet/3102").text
            #expect(page.contains(#"<span class="excerpt">Read example.com/article now</span>"#))
            let shownParent = try #require(Self.li(page, 3101))
            #expect(shownParent.contains(#">example.com/article</a> now</p>"#), "the parent shows it so")
            #expect(!page.contains("t.co/Parent0001"))
        }
    }

    @Test func theConversationPageShowsTheRootFirstAndTheReplies() async throws {
        let world = try await ReaderHarness()
        try await Self.addGraph(world)
        try await world.withReader { reader in
            let page = try await reader.request("/tweet/3002")
            #expect(page.status == 200)
            let root = try #require(page.text.range(of: #"data-id="3001""#))
            let focus = try #require(page.text.range(of: #"data-id="3002""#))
            let answer = try #require(page.text.range(of: #"data-id="3003""#))
            #expect(root.lowerBound < focus.lowerBound && focus.lowerBound < answer.lowerBound)
            #expect(page.text.contains(#"<ol class="timeline focus">"#) && page.text.contains("<h2>Replies</h2>"))

            let orphan = try await reader.request("/tweet/3006").text
            #expect(orphan.contains(#"<li class="tweet missing" data-id="3000"><p class="fault">Post 3000: not fetched yet</p></li>"#))
            #expect(try await reader.request("/tweet/3000").status == 404)
            #expect(try await reader.request("/tweet/x").status == 400)
            #expect(try await reader.request("/tweet/3002", headers: ["Authorization": "Bearer no"]).status == 401)
        }
    }

    /// A reply whose parent is gone (here v2 names it only in a partial error) still says
    /// whom it answers, from the mention its answer gives for `in_reply_to_user_id`: on
    /// the feed's page, its conversation, the Atom feed and the JSON API.
    @Test func aReplyWhoseParentIsGoneSaysWhomItAnswers() async throws {
        let world = try await ReaderHarness()
        let body = #"""
            {"data":[{"id":"3201","author_id":"3","created_at":"2026-09-21T14:00:00.000Z","text":"@dora agreed","conversation_id":"3200",
                      "in_reply_to_user_id":"77","referenced_tweets":[{"type":"replied_to","id":"3200"}],
                      "entities":{"mentions":[{"start":0,"end":5,"username":"dora","id":"77"}]}}],
             "errors":[{"resource_id":"3200","parameter":"referenced_tweets.id","resource_type":"tweet","title":"Not Found Error",
                        "detail":"Could not find tweet with referenced_tweets.id: [3200].","type":"https://api.twitter.com/2/problems/resource-not-found"}],
             "meta":{"result_count":1}}
            """#
        var page = try PageParser.page(.v2, try JSONValue.parse(body), rateLimit: nil)
        page.authors = [Self.carol]
        _ = try await world.database.storePage(page, feed: .home, state: SyncState(feed: .home), now: Date())
        let line = #"replying to <a href="/tweet/3200">@dora (post 3200, not fetched yet)</a>"#
        try await world.withReader { reader in
            #expect(Self.li(try await reader.request("/home").text, 3201)?.contains(line) == true)
            #expect(try await reader.request("/tweet/3201").text.contains(line))
            #expect(try await reader.request("/feeds/home.atom").text.contains("replying to &lt;a href=&quot;/tweet/3200&quot;&gt;@dora (post 3200"))
            let api = try JSONValue.parse(try await reader.request("/api/feed/home").body)
            let reply = api.array?.first { $0["id"] == .string("3201") }
            #expect(reply?["inReplyTo"] == .object(["id": .string("3200"), "username": .string("dora")]), "\(api)")
        }
    }

    /// Looking never waits on the network: the page records what it lacks and returns.
    @Test func aLookRecordsTheFaultsForTheFetcher() async throws {
        let world = try await ReaderHarness()
        try await Self.addGraph(world)
        try await world.withReader { reader in
            #expect(try await world.database.pendingFetches(limit: 10, now: Date()).map(\.id).isEmpty)
            _ = try await reader.request("/home")
            #expect(try await world.database.pendingFetches(limit: 10, now: Date()).map(\.id) == [TweetID(3000)])
            #expect(try await reader.request("/tweet/2999").status == 404)
            #expect(Set(try await world.database.pendingFetches(limit: 10, now: Date()).map(\.id)) == [TweetID(3000), TweetID(2999)])
        }
        // What the API called gone is shown with its reason and not asked for again.
        try await world.database.storeLookup(found: TimelinePage(tweets: [], authors: [], nextPageToken: nil),
                                             unavailable: [TweetID(3000): "Not Found Error: Could not find tweet with id: [3000]."],
                                             asked: [TweetID(3000)], now: Date(), bill: BillableAnswer(source: .lookups), prices: .published)
        try await world.withReader { reader in
            let page = try await reader.request("/tweet/3006").text
            #expect(page.contains("Post 3000: unavailable (Not Found Error: Could not find tweet with id: [3000].)"))
            #expect(try await world.database.pendingFetches(limit: 10, now: Date()).map(\.id) == [TweetID(2999)])
            #expect(try await reader.request("/home").text.contains("post 3000, unavailable (Not Found Error"))
        }
    }

    /// A picture in a post is content: its `<img>` always says what it is (the author's
    /// description, else "photo (no description)" or "still of a video"), and while it
    /// is not cached the page says which kind in words, with the description when there is one.
    @Test func everyPictureHasAltTextAndThePendingOnesSayWhatTheyAre() throws {
        func media(_ key: String, _ kind: Media.Kind, alt: String?, path: String?) -> MediaItem {
            MediaItem(media: Media(key: key, kind: kind, imageURL: "https://pbs.twimg.com/media/\(key).jpg", width: 640, height: 480, altText: alt),
                      file: path.map { String($0.dropFirst("/media/".count)) }, path: path)
        }
        var item = FeedItem(tweet: Tweet(id: TweetID(40), authorID: Self.carol.id, createdAt: Date(timeIntervalSince1970: 1_790_010_040),
                                         text: "pictures"),
                            feeds: [.home], author: Self.carol, avatarPath: nil)
        item.media = [
            media("3_1", .photo, alt: nil, path: "/media/a.png"), media("3_2", .photo, alt: " ", path: "/media/b.png"),
            media("7_3", .video, alt: nil, path: "/media/c.png"), media("3_4", .photo, alt: nil, path: nil),
            media("16_5", .animatedGIF, alt: nil, path: nil), media("3_6", .photo, alt: "a <b>cat</b>", path: nil),
        ]
        let html = TweetHTML.render(TweetModel(item, links: [:], now: Date()))
        #expect(html.contains(#"<img class="photo media-photo" src="/media/a.png" width="640" height="480" alt="photo (no description)">"#))
        #expect(html.contains(#"src="/media/b.png" width="640" height="480" alt="photo (no description)">"#), "a blank description is none")
        #expect(html.contains(#"<a class="play" href="https://x.com/i/web/status/40" rel="noopener noreferrer"><img class="photo media-video" src="/media/c.png" width="640" height="480" alt="still of a video"></a>"#))
        #expect(html.contains(#"<span class="media-pending">photo not cached yet</span>"#), "no dangling colon")
        #expect(html.contains(#"<span class="media-pending">GIF not cached yet</span>"#), "the kind in words")
        #expect(html.contains(#"<span class="media-pending">photo not cached yet: a &lt;b&gt;cat&lt;/b&gt;</span>"#))
        #expect(html.components(separatedBy: #"<img class="photo"#).dropFirst().allSatisfy { !$0.hasPrefix(#"alt="""#) && !$0.contains(#" alt="">"#) })
        #expect(!html.contains("animated_gif not"))
    }
}
