import Foundation
import Testing
import TwfeedBilling
import TwfeedEmulator
@testable import TwfeedCore
@testable import TwfeedKit
import TwfeedStore

/// The API layer against the emulator, both dialects: a timeline page's posts carry
/// their media and a long post's whole text (v2; v1.1 has no note tweets), and a lookup
/// by ids finds posts with their authors and media, says which are gone and why, and
/// costs in twfeed's ledger what the emulator billed.
@Suite(.serialized, .tags(.integration))
struct LookupClientTests {
    static func api(_ world: TestWorld) throws -> any TwitterAPI {
        let config = try world.config
        return TwitterAPIFactory.make(
            config: config,
            credentials: try Credentials.load(from: config.credentials),
            transport: CurlTransport(),
            clock: SystemClock()
        )
    }

    /// The emulator's media of a post, as the client should have read them.
    static func expected(_ media: [PublicMedia], base: String) -> [Media] {
        media.map { item in
            Media(
                key: item.key,
                kind: Media.Kind(rawValue: item.type)!,
                imageURL: base + item.path,
                width: item.width,
                height: item.height,
                altText: item.altText
            )
        }
    }

    static let whole = String(repeating: "A long post keeps its whole text, & every <word> of it. ", count: 8) + "Fin."

    @Test(arguments: ["v2", "v1.1"])
    func aTimelinePagesPostsCarryTheirMediaAndWholeText(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 60)
        let emulator = world.emulator
        let long = emulator.addTweet(to: .home, text: Self.whole)
        let api = try Self.api(world)
        let me = try await api.me()
        let page = try await api.timeline(.home, userID: me.id, query: TimelineQuery(maxResults: 100))

        let posted = try #require(page.tweets.first { $0.id.description == long })
        let cut = try #require(emulator.tweet(long)?.text)
        #expect(posted.text == (dialect == "v2" ? Self.whole : cut), "v1.1 gives only the text cut at 280")

        var withMedia = 0
        var longOnes = 0
        for tweet in page.tweets + page.referencedTweets {
            let stored = try #require(emulator.tweet(tweet.id.description))
            #expect(tweet.media == Self.expected(stored.media, base: emulator.baseURL), "\(tweet.id)")
            if !stored.media.isEmpty { withMedia += 1 }
            if let whole = stored.longText, dialect == "v2" {
                #expect(tweet.text == whole)
                longOnes += 1
            }
        }
        #expect(withMedia > 0, "the seeded page has posts with photos, videos or GIFs")
        if dialect == "v2" { #expect(longOnes > 0) }
    }

    @Test(arguments: ["v2", "v1.1"])
    func aLookupFindsPostsWithAuthorsAndMediaAndSaysWhatIsGone(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 60)
        let emulator = world.emulator
        let chain = try #require(emulator.addReplyChain(to: .home, depth: 4))
        let pictured = try #require(
            emulator.allTweetIDs(.home).compactMap { emulator.tweet($0) }.first { !$0.media.isEmpty && $0.retweetOfID == nil }
        )
        let (kept, deleted, protected, root) = (chain.ancestors[0], chain.ancestors[1], chain.ancestors[2], chain.ancestors[3])
        #expect(emulator.deleteTweet(deleted))
        #expect(emulator.deleteTweet(protected, reason: .protected))
        let unknown = "1849000000000000001"
        let asked = [kept, deleted, protected, root, pictured.id, unknown].map { TweetID($0)! }

        let api = try Self.api(world)
        let result = try await api.tweets(ids: asked)

        #expect(Set(result.page.tweets.map(\.id.description)) == [kept, root, pictured.id])
        let authors = Dictionary(uniqueKeysWithValues: result.page.authors.map { ($0.id, $0) })
        for tweet in result.page.tweets {
            let stored = try #require(emulator.tweet(tweet.id.description))
            #expect(authors[tweet.authorID]?.username == stored.authorUsername, "the author of \(tweet.id) came along")
            #expect(tweet.inReplyToID?.description == stored.inReplyToID)
        }
        let found = try #require(result.page.tweets.first { $0.id.description == pictured.id })
        #expect(found.media == Self.expected(pictured.media, base: emulator.baseURL))
        #expect(result.page.tweets.first { $0.id.description == kept }?.conversationID?.description == (dialect == "v2" ? root : nil))

        let gone = result.unavailable
        for id in [deleted, protected, unknown] { #expect(gone[TweetID(id)!] != nil, "\(id) unavailable") }
        #expect(gone[TweetID(kept)!] == nil && gone[TweetID(root)!] == nil)
        if dialect == "v2" {
            #expect(gone[TweetID(deleted)!]?.hasPrefix("Not Found Error: ") == true)
            #expect(gone[TweetID(protected)!]?.hasPrefix("Authorization Error: ") == true)
            #expect(gone[TweetID(unknown)!]?.hasPrefix("Not Found Error: ") == true)
        } else {
            #expect([deleted, protected, unknown].allSatisfy { gone[TweetID($0)!]?.hasPrefix("Not Found Error: ") == true })
        }

        // What the ledger records for the answer is what the emulator billed for it.
        let config = try world.config
        let terms = BillingTerms(config.api)
        let bill = terms.bill(lookup: result)
        #expect(bill.source == .lookups)
        let database = try AppDatabase.open(path: config.storage.database)
        _ = try await database.recordSpend(bill, prices: terms.prices, now: emulator.now)
        let rows = try await database.spend(since: "2000-01-01")
        let ours = rows.reduce(MicroUSD.zero) { $0 + $1.cost }
        let billed = emulator.bill()
        #expect(billed.endpoint(.lookup).micros > 0)
        #expect(Int(ours.micros) == billed.total.micros, "twfeed \(ours) vs the emulator's \(billed.total.usd)")
        #expect(billed.endpoint(.lookup).count(.postRead) == bill.reads[.postRead]?.count)
        #expect(billed.endpoint(.lookup).count(.userRead) == bill.reads[.userRead]?.count)
        #expect(rows.allSatisfy { $0.source == .lookups })
    }
}
