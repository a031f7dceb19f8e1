import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore
import TwfeedTesting

/// Answers shaped like real recorded X answers (`Fixtures/`, made up): what replaying
/// three accounts' answers showed twfeed getting wrong. A repost whose own text is a
/// withholding notice, the pre-2022 media link without `media_key`, a reply's line of a
/// parent with a link, and the new vocabulary of August 2026.
@Suite struct RecordedAnswerTests {
    static func fixture(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "json"))
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func page(_ dialect: TwfeedConfig.Dialect, _ name: String) throws -> TimelinePage {
        try PageParser.page(dialect, try JSONValue.parse(fixture(name)), rateLimit: nil)
    }

    static func fresh() throws -> AppDatabase {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-recorded-\(UUID().uuidString.prefix(8))").path
        return try AppDatabase.open(path: "\(folder)/twfeed.sqlite")
    }

    static func store(_ page: TimelinePage, in database: AppDatabase) async throws {
        _ = try await database.storePage(page, feed: .home, state: SyncState(feed: .home), now: Date())
    }

    static func text(_ id: Int64, in database: AppDatabase) async throws -> String? {
        try await database.feedItems(.home, limit: 100).first { $0.tweet.id == TweetID(id) }?.tweet.text
    }

    /// A v2 timeline does not expand authors: the originals' authors were stored by an
    /// earlier page (or looked up by the syncer) and the repost is built from the
    /// original, whether the notice is about the original's author or the reposter's.
    @Test func aV2RepostWithAWithholdingNoticeIsItsOriginalInRTForm() async throws {
        let page = try Self.page(.v2, "v2-withheld-reposts")
        #expect(page.tweets.map(\.retweetOfID) == [1_590_000_000_000_000_012, 1_590_000_000_000_000_011, 1_590_000_000_000_000_010].map { TweetID(Int64($0)) })
        let database = try Self.fresh()
        let known = [
            Author(id: UserID(3_300_000_004), username: "kisan_voice", name: "Kisan Voice"),
            Author(id: UserID(3_300_000_005), username: "bauer_blog", name: "Bauer"),
        ]
        try await Self.store(TimelinePage(tweets: [], authors: known, nextPageToken: nil), in: database)
        try await Self.store(page, in: database)
        #expect(try await Self.text(1_590_000_000_000_000_030, in: database) == "RT @kisan_voice: Farmers march on Delhi today & tomorrow")
        #expect(try await Self.text(1_590_000_000_000_000_031, in: database) == "RT @bauer_blog: Ein ganz normaler Beitrag", "not the reposter's notice")
        #expect(
            try await Self.text(1_590_000_000_000_000_032, in: database)
                == "RT @plain_poster: A plain repost, its text cut in the wrapper as the API does with long ones: the whole text is in the original.",
            "a repost whose author is not stored takes the name its own text starts with")

        // A lookup expands authors: the parser alone builds it.
        let expanded = try Self.fixture("v2-withheld-reposts")
            .replacingOccurrences(of: #""includes": {"#, with: #""includes": {"users": [{"id": "3300000004", "username": "kisan_voice", "name": "K"}],"#)
        let parsed = try PageParser.page(.v2, try JSONValue.parse(expanded), rateLimit: nil)
        #expect(parsed.tweets.last?.text == "RT @kisan_voice: Farmers march on Delhi today & tomorrow")
    }

    @Test func aV11RetweetWithAWithholdingNoticeIsItsOriginalInRTForm() async throws {
        let page = try Self.page(.v1_1, "v11-withheld-retweet")
        #expect(page.tweets.map(\.text) == ["RT @kisan_voice: Farmers march on Delhi today & tomorrow"])
        #expect(page.referencedTweets.map(\.id) == [TweetID(1_590_000_000_000_000_010)])
    }

    /// Before 2022 the media link has no `media_key` (v2) and is not in `entities.media`
    /// (v1.1): its expanded URL, the post's own photo or video page, tells. A link to
    /// another post's photo is the author's own and stays.
    @Test(arguments: [TwfeedConfig.Dialect.v2, .v1_1])
    func aPre2022MediaLinkToThePostsOwnPhotoOrVideoIsDropped(dialect: TwfeedConfig.Dialect) async throws {
        let page = try Self.page(dialect, dialect == .v2 ? "v2-pre2022-media-links" : "v11-pre2022-media-links")
        let texts = Dictionary(uniqueKeysWithValues: page.tweets.map { ($0.id.rawValue, $0.text) })
        #expect(texts[1_400_000_000_000_000_001] == "Sunset at the pier")
        #expect(texts[1_400_000_000_000_000_003] == "Look at her photo https://t.co/OtherPic01")
        if dialect == .v2 {
            #expect(texts[1_400_000_000_000_000_002] == "Read https://t.co/Article01 and watch", "x.com's video page too; the article stays")
            #expect(page.tweets.first { $0.id.rawValue == 1_400_000_000_000_000_001 }?.media.map(\.kind) == [.photo])
        }
    }

    @Test func ownMediaPagesAreTheStatusPhotoAndVideoPagesOfThatPost() {
        let id = TweetID(1_400_000_000_000_000_001)
        for own in [
            "https://twitter.com/pier_fan/status/1400000000000000001/photo/1", "http://x.com/pier_fan/status/1400000000000000001/video/1",
            "https://mobile.twitter.com/pier_fan/status/1400000000000000001/photo/4", "https://X.com/i/web/status/1400000000000000001/photo/2",
        ] {
            #expect(TextCleaning.isOwnMediaPage(own, of: id), "\(own)")
        }
        for other in [
            "https://twitter.com/pier_fan/status/1400000000000000002/photo/1", "https://twitter.com/pier_fan/status/1400000000000000001",
            "https://example.com/pier_fan/status/1400000000000000001/photo/1", "https://twitter.com/pier_fan/status/1400000000000000001/photo/",
            "https://x.com/pier_fan/status/1400000000000000001/likes/1",
        ] {
            #expect(!TextCleaning.isOwnMediaPage(other, of: id), "\(other)")
        }
    }

    /// The reader and `show` show the parent's links by their display URL: so does the
    /// reply's line of it.
    @Test func aRepliesLineOfItsParentShowsLinksAsTheParentDoes() async throws {
        let database = try Self.fresh()
        try await Self.store(try Self.page(.v2, "v2-reply-to-a-link"), in: database)
        let reply = try #require(try await database.feedItems(.home, limit: 10).first)
        #expect(reply.inReplyTo?.excerpt == "Worth reading: example.com/a/long/articl… & more")
        #expect(reply.tweet.text == "@reader_one Agreed, see https://t.co/Second0002", "the stored text keeps its t.co link")
        let links = try await database.tweetLinks([reply.tweet.id])
        #expect(TweetLink.shownText(reply.tweet.text, links: links[reply.tweet.id] ?? []) == "@reader_one Agreed, see example.net/follow-up")
    }

    /// The OpenAPI document of August 2026 renames the fields: each is read under either
    /// name, so an answer in the new vocabulary loses nothing.
    @Test func theNewVocabularyReadsAsTheOld() async throws {
        let new = try Self.fixture("v2-new-vocabulary")
        let old = new.replacingOccurrences(of: "\"referenced_posts\"", with: "\"referenced_tweets\"")
            .replacingOccurrences(of: "\"note_post\"", with: "\"note_tweet\"")
            .replacingOccurrences(of: "\"posts\":", with: "\"tweets\":")
            .replacingOccurrences(of: "\"edit_history_post_ids\"", with: "\"edit_history_tweet_ids\"")
            .replacingOccurrences(of: "\"repost_count\"", with: "\"retweet_count\"")
        #expect(old != new)
        for body in [new, old] {
            let page = try PageParser.page(.v2, try JSONValue.parse(body), rateLimit: nil)
            let byID = Dictionary(uniqueKeysWithValues: (page.tweets + page.referencedTweets).map { ($0.id.rawValue, $0) })
            let repost = try #require(byID[1_990_000_000_000_000_024])
            #expect(repost.retweetOfID == TweetID(1_990_000_000_000_000_010))
            #expect(repost.text.hasPrefix("RT @long_writer: The first words") && repost.text.hasSuffix("here is the rest of it, whole."))
            #expect(byID[1_990_000_000_000_000_023]?.quotedID == TweetID(1_990_000_000_000_000_011))
            #expect(byID[1_990_000_000_000_000_022]?.inReplyToID == TweetID(1_990_000_000_000_000_012))
            #expect(byID[1_990_000_000_000_000_022]?.conversationID == TweetID(1_990_000_000_000_000_005))
            #expect(byID[1_990_000_000_000_000_021]?.text.hasSuffix("<angle brackets> & an ampersand, kept as the author typed them, all the way to the end of the note.") == true)
            #expect(byID[1_990_000_000_000_000_012]?.inReplyToID == TweetID(1_990_000_000_000_000_005), "an included post's parent too")

            let counts = try await PostParsingTests.client(.v2, answering: body).ownOriginals(userID: UserID(7_700_000_001), query: TimelineQuery()).retweetCounts
            #expect(counts[TweetID(1_990_000_000_000_000_021)] == 11 && counts[TweetID(1_990_000_000_000_000_023)] == 7 && counts.count == 4)
        }
    }
}
