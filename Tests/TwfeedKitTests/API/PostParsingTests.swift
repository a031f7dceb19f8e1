import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedKit
import TwfeedTesting

/// How both dialects read what a post holds beyond its text, from answers written out
/// here: a long post's whole text (`note_tweet`, or `note_post` as the spec of August
/// 2026 spells it), photos, videos and GIFs (v2 `includes.media`, v1.1
/// `extended_entities`), and a lookup's unavailable ids.
struct PostParsingTests {
    static func client(_ dialect: TwfeedConfig.Dialect, answering body: String) -> any TwitterAPI {
        client(dialect, transport: CannedTransport(body: Array(body.utf8)))
    }

    /// A client of `dialect` over `transport`, signing with fixed credentials and time.
    static func client(_ dialect: TwfeedConfig.Dialect, transport: any APITransport) -> any TwitterAPI {
        let requester = SignedRequester(
            transport: transport,
            signer: OAuthSigner(
                credentials: Credentials(consumerKey: "ck", consumerSecret: "cs", accessToken: "at", accessTokenSecret: "as"),
                clock: ManualClock(now: Date(timeIntervalSince1970: 1_800_000_000))
            ),
            baseURL: "http://127.0.0.1:1",
            timeoutSeconds: 5
        )
        return dialect == .v2 ? V2Client(requester: requester) : V11Client(requester: requester)
    }

    static let v2Page = #"""
        {"data":[
          {"id":"1900000000000000003","author_id":"11","created_at":"2026-11-25T10:00:00.000Z","text":"RT @ada: short",
           "referenced_tweets":[{"type":"retweeted","id":"1900000000000000001"}]},
          {"id":"1900000000000000002","author_id":"12","created_at":"2026-11-25T09:00:00.000Z",
           "text":"Look &amp; see https://t.co/abcdefghij","attachments":{"media_keys":["3_501","7_502","16_503"]},
           "entities":{"urls":[{"start":15,"end":38,"url":"https://t.co/abcdefghij","expanded_url":"https://x.com/b/status/2/photo/1","media_key":"3_501"}]}}
        ],
        "includes":{
          "tweets":[{"id":"1900000000000000001","author_id":"13","created_at":"2026-11-25T08:00:00.000Z","text":"cut…",
                     "note_tweet":{"text":"The whole &lt;long&gt; text"},"attachments":{"media_keys":["3_504"]}}],
          "users":[{"id":"13","username":"ada","name":"Ada"}],
          "media":[
            {"media_key":"3_501","type":"photo","url":"https://pbs.twimg.com/media/a.jpg","width":1200,"height":800,"alt_text":"A harbour"},
            {"media_key":"7_502","type":"video","preview_image_url":"https://pbs.twimg.com/ext_tw_video_thumb/502/pu/img/b.jpg","width":1280,"height":720},
            {"media_key":"16_503","type":"animated_gif","preview_image_url":"https://pbs.twimg.com/tweet_video_thumb/c.jpg","width":480,"height":270},
            {"media_key":"3_504","type":"photo","url":"https://pbs.twimg.com/media/d.jpg","width":10,"height":20,"alt_text":""},
            {"media_key":"9_505","type":"hologram"}
          ]},
        "meta":{"result_count":2}}
        """#

    @Test func v2JoinsMediaAndTakesTheWholeTextOfALongPost() throws {
        let page = try PageParser.page(.v2, try JSONValue.parse(Self.v2Page), rateLimit: nil)
        let retweet = try #require(page.tweets.first { $0.id == TweetID(1_900_000_000_000_000_003) })
        #expect(retweet.text == "RT @ada: The whole <long> text", "a retweet of a long post shows all of it")
        let original = try #require(page.referencedTweets.first)
        #expect(original.text == "The whole <long> text")
        #expect(original.media == [Media(key: "3_504", kind: .photo, imageURL: "https://pbs.twimg.com/media/d.jpg", width: 10, height: 20)])

        let photos = try #require(page.tweets.first { $0.id == TweetID(1_900_000_000_000_000_002) })
        #expect(photos.text == "Look & see", "the media link at the end goes: the photos show instead")
        #expect(photos.media.map(\.key) == ["3_501", "7_502", "16_503"])
        #expect(photos.media[0] == Media(key: "3_501", kind: .photo, imageURL: "https://pbs.twimg.com/media/a.jpg", width: 1200, height: 800, altText: "A harbour"))
        #expect(photos.media[1].kind == .video && photos.media[1].imageURL == "https://pbs.twimg.com/ext_tw_video_thumb/502/pu/img/b.jpg")
        #expect(photos.media[2].kind == .animatedGIF && photos.media[2].altText == nil)
    }

    @Test func v2ReadsTheSpellingOfAugust2026() throws {
        let body = Self.v2Page
            .replacingOccurrences(of: "\"note_tweet\"", with: "\"note_post\"")
            .replacingOccurrences(of: "\"referenced_tweets\"", with: "\"referenced_posts\"")
            .replacingOccurrences(of: "\"tweets\":[", with: "\"posts\":[")
        let page = try PageParser.page(.v2, try JSONValue.parse(body), rateLimit: nil)
        #expect(page.referencedTweets.map(\.text) == ["The whole <long> text"])
        #expect(page.tweets.first?.retweetOfID == TweetID(1_900_000_000_000_000_001))
        #expect(page.tweets.first?.text == "RT @ada: The whole <long> text")
    }

    @Test func v2LookupsReportWhatIsGoneWithTheAPIsReason() async throws {
        let body = #"""
            {"data":{"id":"1900000000000000002","author_id":"12","created_at":"2026-11-25T09:00:00.000Z","text":"here",
                     "referenced_tweets":[{"type":"replied_to","id":"1900000000000000009"}]},
             "includes":{"users":[{"id":"12","username":"b","name":"B"}]},
             "errors":[
               {"value":"1900000000000000005","detail":"Could not find tweet with ids: [1900000000000000005].","title":"Not Found Error",
                "resource_type":"tweet","parameter":"ids","resource_id":"1900000000000000005","type":"https://api.twitter.com/2/problems/resource-not-found"},
               {"value":"1900000000000000006","detail":"Sorry, you are not authorized to see the Tweet with ids: [1900000000000000006].",
                "title":"Authorization Error","resource_type":"tweet","parameter":"ids","resource_id":"1900000000000000006","section":"data",
                "type":"https://api.twitter.com/2/problems/not-authorized-for-resource"},
               {"value":"1900000000000000009","detail":"Could not find tweet with referenced_tweets.id: [1900000000000000009].",
                "title":"Not Found Error","resource_type":"tweet","parameter":"referenced_tweets.id","resource_id":"1900000000000000009"},
               {"value":"77","detail":"Could not find user with ids: [77].","title":"Not Found Error","resource_type":"user","resource_id":"77"}
             ]}
            """#
        let ids = [1_900_000_000_000_000_002, 1_900_000_000_000_000_005, 1_900_000_000_000_000_006].map { TweetID(Int64($0)) }
        let result = try await Self.client(.v2, answering: body).tweets(ids: ids + ids)
        #expect(result.page.tweets.map(\.id) == [ids[0]], "`data` as one object (GET /2/tweets/:id's shape) is read too")
        #expect(result.page.authors.map(\.username) == ["b"])
        #expect(result.page.nextPageToken == nil)
        #expect(result.unavailable[ids[1]] == "Not Found Error: Could not find tweet with ids: [1900000000000000005].")
        #expect(result.unavailable[ids[2]]?.hasPrefix("Authorization Error: Sorry, you are not authorized") == true)
        #expect(result.unavailable[TweetID(1_900_000_000_000_000_009)]?.hasPrefix("Not Found Error") == true, "a parent that is gone")
        #expect(result.unavailable.count == 3, "the user error is not about a post")

        let none = try await Self.client(.v2, answering: "{}").tweets(ids: [])
        #expect(none.page.tweets.isEmpty && none.unavailable.isEmpty)
    }

    static let v11Status = #"""
        {"id_str":"1900000000000000002","created_at":"Wed Nov 25 09:00:00 +0000 2026",
         "full_text":"Look &amp; see https://t.co/abcdefghij","user":{"id_str":"12","screen_name":"b","name":"B"},
         "extended_entities":{"media":[
           {"id_str":"501","type":"photo","media_url_https":"https://pbs.twimg.com/media/a.jpg","url":"https://t.co/abcdefghij",
            "sizes":{"large":{"w":2048,"h":1365,"resize":"fit"}},"original_info":{"width":3000,"height":2000},"ext_alt_text":"A harbour"},
           {"id_str":"502","type":"video","media_url_https":"https://pbs.twimg.com/ext_tw_video_thumb/502/pu/img/b.jpg",
            "url":"https://t.co/abcdefghij","sizes":{"large":{"w":1280,"h":720,"resize":"fit"}},"ext_alt_text":null},
           {"id_str":"503","type":"animated_gif","media_url_https":"https://pbs.twimg.com/tweet_video_thumb/c.jpg","url":"https://t.co/abcdefghij"}
         ]}}
        """#

    @Test func v11ReadsExtendedEntitiesWithV2sKeys() throws {
        let page = try PageParser.page(.v1_1, try JSONValue.parse("[" + Self.v11Status + "]"), rateLimit: nil)
        let tweet = try #require(page.tweets.first)
        #expect(tweet.text == "Look & see")
        #expect(tweet.media.map(\.key) == ["3_501", "7_502", "16_503"])
        #expect(tweet.media[0] == Media(key: "3_501", kind: .photo, imageURL: "https://pbs.twimg.com/media/a.jpg", width: 3000, height: 2000, altText: "A harbour"))
        #expect(tweet.media[1].width == 1280 && tweet.media[1].height == 720 && tweet.media[1].altText == nil)
        #expect(tweet.media[2].kind == .animatedGIF && tweet.media[2].width == nil)
    }

    @Test func v11LookupsListNullsAsUnavailable() async throws {
        let body = #"{"id":{"1900000000000000002":"# + Self.v11Status + #","1900000000000000005":null}}"#
        let result = try await Self.client(.v1_1, answering: body).tweets(ids: [TweetID(1_900_000_000_000_000_002), TweetID(1_900_000_000_000_000_005)])
        #expect(result.page.tweets.map(\.id) == [TweetID(1_900_000_000_000_000_002)])
        #expect(result.page.tweets.first?.media.count == 3)
        #expect(result.page.authors.map(\.username) == ["b"])
        #expect(result.unavailable.keys.map(\.self) == [TweetID(1_900_000_000_000_000_005)])
        #expect(result.unavailable.values.first?.hasPrefix("Not Found Error") == true)
        #expect(result.page.nextPageToken == nil)

        // A server that ignores `map` leaves the missing ones out of an array.
        let plain = try await Self.client(.v1_1, answering: "[" + Self.v11Status + "]")
            .tweets(ids: [TweetID(1_900_000_000_000_000_002), TweetID(1_900_000_000_000_000_005)])
        #expect(plain.page.tweets.count == 1 && Array(plain.unavailable.keys) == [TweetID(1_900_000_000_000_000_005)])
        await #expect(throws: APIError.self) { try await Self.client(.v1_1, answering: "{}").tweets(ids: [TweetID(5)]) }
    }

    @Test func aLookupIsBilledToLookupsAsPostReads() {
        let tweet = Tweet(id: TweetID(5), authorID: UserID(7), createdAt: Date(), text: "a", inReplyToID: TweetID(4))
        let parent = Tweet(id: TweetID(4), authorID: UserID(8), createdAt: Date(), text: "b")
        let result = LookupResult(
            page: TimelinePage(tweets: [tweet], referencedTweets: [parent], authors: [Author(id: UserID(7), username: "x", name: "X")], nextPageToken: nil),
            unavailable: [TweetID(3): "Not Found Error"]
        )
        let bill = BillingTerms(ownsApp: true).bill(lookup: result)
        #expect(bill.source == .lookups)
        #expect(bill.reads[.postRead] == [5, 4])
        #expect(bill.reads[.userRead] == [7])
        #expect(bill.reads[.ownedRead] == nil)
    }
}
