import Foundation
import Testing
import TwfeedBilling
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedReader
@testable import TwfeedStore

/// What the budget left unread is shown on the reader's page where it lies: a marker just
/// above the first stored post below a gap, and the gap below a first backfill after the
/// feed's last post, on its last page only.
@Suite(.serialized)
struct ReaderGapTests {
    @Test func aGapIsMarkedWhereItLiesAndTheBackfillGapAfterTheLastPost() async throws {
        let world = try await ReaderHarness()
        var state = try await world.database.syncState(.home)
        state.newestID = TweetID(ReaderHarness.controlID)
        let now = Date(timeIntervalSince1970: 1_796_040_000)
        _ = try await world.database.recordGap(
            FeedGap(feed: .home, newerThanID: TweetID(1020), olderThanID: TweetID(1021), reason: .budget, recordedAt: now),
            closing: state)
        _ = try await world.database.recordGap(
            FeedGap(feed: .home, newerThanID: FeedGap.noLowerEnd, olderThanID: TweetID(1001), reason: .budget, recordedAt: now),
            closing: state)
        try await world.withReader { reader in
            let first = try await reader.request("/home").text
            let marker = try #require(first.range(of: #"<li class="gap" data-newer-than="1020" data-older-than="1021">"#))
            let next = try #require(first[marker.upperBound...].range(of: "<li class=\"tweet\""))
            #expect(first[next.upperBound...].hasPrefix(#" id="t1020""#), "just above the first post below it")
            #expect(first.contains("Posts not read: budget. How many is not known until they are read; each costs $0.005 to read"))
            #expect(first.contains("<code>twfeed fill home --max-usd X</code> reads them."))
            #expect(!first.contains(#"data-older-than="1001""#), "the backfill's gap lies below this page")

            let last = try await reader.request("/home?before=1014").text
            let tail = try #require(last.range(of: #"<li class="gap" data-older-than="1001">"#))
            #expect(!last[tail.upperBound...].contains("<li class=\"tweet\""), "after the feed's last post")
            #expect(last.contains("Older posts not read: budget."))
            #expect(!last.contains(#"data-older-than="1021""#))
            let mentions = try await reader.request("/mentions").text
            #expect(!mentions.contains("class=\"gap\""), "another feed's gaps are not shown")
        }
    }

    /// The marker's text goes through the page's escaping like every other value.
    @Test func theMarkerIsEscaped() throws {
        var marker = GapMarker(
            FeedGap(feed: .home, newerThanID: TweetID(1), olderThanID: TweetID(2), reason: .budget, recordedAt: Date()),
            prices: .published, ownsApp: true)
        marker.text = "<script>alert(1)</script> & \"x\""
        var tweet = RenderedTweet(TweetModel(
            FeedItem(tweet: Tweet(id: TweetID(1), authorID: UserID(1), createdAt: Date(), text: "t"), feeds: [.home], author: nil, avatarPath: nil),
            links: [:], now: Date()))
        tweet.gapsBefore = [marker]
        let header = HeaderModel(nav: [], account: nil, canSignOut: false, csrf: nil, healthName: "ok", healthText: "",
                                 healthDetail: "", polls: [])
        let page = PageModel(title: "t", heading: "h", header: header, message: nil, tweets: [tweet])
        let html = try #require(PageTemplates.library.render(page, withTemplate: "page"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;"))
        #expect(!html.contains("<script>"))
    }
}
