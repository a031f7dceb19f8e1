import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedReader
@testable import TwfeedStore
import TwfeedTesting

/// A post the account deleted (`twfeed delete`) stays stored, and every page shows it
/// gone: the timelines, search, its conversation, the posts that quote it or answer
/// it, and the Atom feed show "deleted" where its text and photos were, and no Reply.
@Suite(.serialized)
struct ReaderDeletedTests {
    static let deleted = TweetID(1001)
    static let text = "Plain tweet number 1001 about coffee"
    static let photoAlt = "a cup on a table"

    /// The harness's 1001 (home, mentions, and here the archive's posts too) with a
    /// photo, a reply to it and a quote of it; then 1001 marked deleted.
    static func world() async throws -> ReaderHarness {
        let world = try await ReaderHarness()
        let base = Date(timeIntervalSince1970: 1_790_000_000)
        let original = Tweet(
            id: deleted, authorID: ReaderHarness.alice.id, createdAt: base.addingTimeInterval(1001), text: text,
            media: [Media(key: "3_1", kind: .photo, imageURL: "https://pbs.twimg.com/media/cup.jpg", width: 10, height: 10, altText: photoAlt)]
        )
        let reply = Tweet(id: TweetID(3001), authorID: ReaderHarness.mallory.id, createdAt: base.addingTimeInterval(6000), text: "what a reply",
                          inReplyToID: deleted)
        let quote = Tweet(id: TweetID(3002), authorID: ReaderHarness.mallory.id, createdAt: base.addingTimeInterval(6001), text: "what a quote",
                          quotedID: deleted)
        try await world.database.storePage(
            TimelinePage(tweets: [original, reply, quote], authors: [ReaderHarness.alice, ReaderHarness.mallory], nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Date())
        try await world.database.storePage(TimelinePage(tweets: [original], authors: [ReaderHarness.alice], nextPageToken: nil),
                                           feed: .posts, state: SyncState(feed: .posts), now: Date())
        try await world.database.markTweetDeleted(deleted, at: Date())
        return world
    }

    /// The `<li>` of `id` on a page.
    static func tweet(_ id: Int64, in page: String) -> String? {
        guard let start = page.range(of: #"<li class="tweet" id="t\#(id)""#) else { return nil }
        return String(page[start.lowerBound...].prefix { $0 != "\n" }.components(separatedBy: "</li>")[0])
    }

    @Test func everyPageShowsTheDeletedPostGone() async throws {
        let world = try await Self.world()
        try await world.withReader { reader in
            let pages = ["/home?before=1002", "/mentions", "/posts", "/search?q=1001", "/tweet/1001", "/tweet/3001"]
            for path in pages {
                let page = try await reader.request(path)
                #expect(page.status == 200, "\(path)")
                let item = try #require(Self.tweet(1001, in: page.text), "\(path) does not list 1001")
                #expect(item.contains(#"<p class="deleted">deleted</p>"#), "\(path): \(item)")
                #expect(!item.contains(#"<p class="text">"#) && !item.contains(#"class="media""#), "\(path): text or photos shown")
                #expect(!item.contains("/compose?reply_to=1001"), "\(path): a deleted post offers Reply")
                #expect(!page.text.contains(Self.text) && !page.text.contains(Self.photoAlt), "\(path) shows the deleted text or photo")
            }
            // The posts pointing at it keep theirs, and show it gone.
            let home = try await reader.request("/home").text
            let reply = try #require(Self.tweet(3001, in: home))
            #expect(reply.contains(#"<p class="text">what a reply</p>"#) && reply.contains(#": <span class="excerpt">deleted</span>"#))
            let quote = try #require(Self.tweet(3002, in: home))
            #expect(quote.contains(#"<p class="text">what a quote</p>"#))
            #expect(quote.contains(#"<blockquote class="quoted" data-id="1001">"#) && quote.contains(#"</a></p><p class="deleted">deleted</p></blockquote>"#))
            #expect(!home.contains(Self.text))
            // Another post is untouched.
            #expect(try await reader.request("/mentions").text.contains(#"<a class="reply" href="/compose?reply_to=1001">"#) == false)
            #expect(home.contains(#"<a class="reply" href="/compose?reply_to=3001">Reply</a>"#))

            for feed in ["mentions", "posts", "home"] {
                let atom = try await reader.request("/feeds/\(feed).atom").text
                #expect(!atom.contains(Self.text) && !atom.contains(Self.photoAlt), "\(feed).atom shows the deleted text")
                if feed != "home" {
                    #expect(atom.contains("<title>@alice: deleted</title>") && atom.contains("&lt;p&gt;&lt;em&gt;deleted&lt;/em&gt;&lt;/p&gt;"), "\(feed).atom")
                }
            }
        }
    }
}
