import Foundation
import Logging
import Testing
import TwfeedBilling
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore

/// A post the fetcher reads by id whose author the answer left out is shown with its
/// author: the author is looked up (`GET /2/users?ids=`) as a poll's page's are, stored
/// with the post and charged to `lookups` as a user read, within what the budget admitted;
/// what the budget cannot pay for, or the API refuses, never costs the post.
@Suite struct FetchedAuthorsTests {
    static let noon = Date(timeIntervalSince1970: 1_796_040_000)  // 2026-11-30T12:00:00Z, a cycle's last day
    static let ada = Author(id: UserID(501), username: "ada", name: "Ada Lovelace")
    static let bob = Author(id: UserID(502), username: "bob", name: "Bob")
    static let cy = Author(id: UserID(503), username: "cy", name: "Cy")

    let clock = ManualClock(now: Self.noon)
    let api: FakeTimelineAPI
    let database: AppDatabase
    let logger = Logger(label: "test") { _ in EventLogHandler(level: .debug, format: .logfmt, sink: MemorySink()) }

    init() throws {
        api = FakeTimelineAPI(clock: clock)
        database = try AppDatabase.inMemory()
        // As v2: answers may leave authors out; the users lookup knows them.
        api.state.withLock {
            $0.authorsOnRequest = true
            $0.users = [Self.ada.id: Self.ada, Self.bob.id: Self.bob, Self.cy.id: Self.cy]
        }
    }

    /// A gate with `budget` dollars left today (the cycle's last day); nil: no budget.
    func gate(budget: MicroUSD? = nil) -> BillingGate {
        var config = TwfeedConfig.API()
        config.budget.monthlyUSD = budget
        return BillingGate(database: database, config: config, clock: clock, logger: logger, readers: [.home])
    }

    /// The fetcher as the daemon builds it: authors stored within 7 days are fresh.
    func fetcher(gate: BillingGate?) -> TweetFetcher {
        let authors = AuthorLookup(api: api, database: database, clock: clock, prices: .published, gate: gate, freshFor: 7 * 86_400)
        return TweetFetcher(
            api: api, database: database, clock: clock, logger: logger, terms: BillingTerms(), gate: gate,
            feeds: [.home], prefetchDepth: 0, authors: authors)
    }

    /// A post the lookup finds, by `author`; `replyTo` and `quoting` are posts it points at.
    @discardableResult
    func post(_ id: Int64, by author: Author, replyTo: TweetID? = nil, quoting: TweetID? = nil) -> TweetID {
        let tweet = Tweet(
            id: TweetID(id), authorID: author.id, createdAt: clock.now().addingTimeInterval(-3_600), text: "post \(id)",
            inReplyToID: replyTo, quotedID: quoting)
        api.state.withLock { $0.lookupTweets[tweet.id] = tweet }
        return tweet.id
    }

    /// The post, looked at: asked for and fetched.
    func look(at id: TweetID, with fetcher: TweetFetcher) async throws -> Date? {
        try await database.requestFetch([id], reason: .asked, now: clock.now())
        return try await fetcher.cycle()
    }

    /// Today's ledger rows of `lookups` of one kind: resources charged.
    func charged(_ kind: BillableKind) async throws -> Int {
        try await database.spend(since: BillingCycle.utcDay(of: clock.now()))
            .filter { $0.source == .lookups && $0.kind == kind }.map(\.resources).reduce(0, +)
    }

    @Test func aFetchedPostWhoseAuthorTheAnswerLeftOutShowsItsAuthorChargedAsAUserRead() async throws {
        let id = post(1_000, by: Self.ada)
        api.state.withLock { $0.lookupLeavesOut = [Self.ada.id] }
        // A budget that pays: the post's admission counts two users a post.
        #expect(try await look(at: id, with: fetcher(gate: gate(budget: MicroUSD(micros: 1_500_000)))) == nil)

        let item = try #require(try await database.feedItem(id))
        #expect(item.author?.username == "ada")
        #expect(item.author?.name == "Ada Lovelace")
        #expect(api.state.withLock { $0.userLookups } == [[Self.ada.id]])
        #expect(try await charged(.userRead) == 1)
        #expect(try await charged(.postRead) == 1)
        #expect(try await database.pendingFetches(limit: 10, now: clock.now()).isEmpty)
    }

    @Test func anAuthorStoredFreshIsNotBoughtAgainAndOneStoredLongerAgoIs() async throws {
        let fetcher = fetcher(gate: nil)
        // The first post brings its author along.
        #expect(try await look(at: post(1_000, by: Self.ada), with: fetcher) == nil)
        api.state.withLock { $0.lookupLeavesOut = [Self.ada.id] }
        let second = post(1_001, by: Self.ada)
        #expect(try await look(at: second, with: fetcher) == nil)
        #expect(try await database.feedItem(second)?.author?.username == "ada")
        #expect(api.state.withLock { $0.userLookups }.isEmpty, "stored today: not bought again")

        // Past `images.revalidateDays` (7): bought again, so a new name shows.
        clock.advance(by: 8 * 86_400)
        api.state.withLock { $0.users[Self.ada.id]?.name = "Ada King" }
        let third = post(1_002, by: Self.ada)
        #expect(try await look(at: third, with: fetcher) == nil)
        #expect(api.state.withLock { $0.userLookups } == [[Self.ada.id]])
        #expect(try await database.feedItem(third)?.author?.name == "Ada King")
        #expect(try await charged(.userRead) == 1)
    }

    /// The answer itself used up what the budget admitted the lookup at (a post that
    /// replies and quotes, both others' authors in it): its own author is not bought,
    /// and the post is kept without it.
    @Test func aBudgetThatCannotPayForTheAuthorSkipsItsLookupAndKeepsThePost() async throws {
        let parent = post(900, by: Self.bob)
        let quoted = post(901, by: Self.cy)
        let id = post(1_000, by: Self.ada, replyTo: parent, quoting: quoted)
        api.state.withLock { $0.lookupLeavesOut = [Self.ada.id] }
        // $0.03 today: one post at its worst case ($0.005 + two users + a post it points at).
        #expect(try await look(at: id, with: fetcher(gate: gate(budget: MicroUSD(micros: 30_000)))) == nil)

        let item = try #require(try await database.feedItem(id), "the post is kept")
        #expect(item.author == nil)
        #expect(api.state.withLock { $0.userLookups }.isEmpty, "nothing the budget did not allow")
        #expect(try await charged(.userRead) == 2, "the two authors the answer brought")
        #expect(try await charged(.postRead) == 3)
        #expect(try await database.pendingFetches(limit: 10, now: clock.now()).isEmpty)
    }

    /// The API refuses the users lookup for money: the posts read are kept, the fetcher
    /// holds (the gate's state), and nothing is asked again while it holds.
    @Test func aRefusedAuthorLookupKeepsThePostAndHoldsTheFetcherWithoutARetry() async throws {
        let id = post(1_000, by: Self.ada)
        api.state.withLock {
            $0.lookupLeavesOut = [Self.ada.id, Self.bob.id]
            $0.userLookupFailures = [
                APIError(kind: .rejected, status: 402, message: "Payment Required", refusal: BillingRefusal.classify(status: 402, body: []))
            ]
        }
        let gate = gate()
        let fetcher = fetcher(gate: gate)
        let until = try #require(try await look(at: id, with: fetcher), "held")
        #expect(until > clock.now())
        #expect(try await gate.current().state == .outOfCredits)
        #expect(try await database.feedItem(id) != nil, "the post is kept")
        #expect(try await database.feedItem(id)?.author == nil)
        #expect(try await charged(.postRead) == 1)
        #expect(try await charged(.userRead) == 0)

        // Rung again meanwhile, with another post to read: nothing goes out.
        for _ in 0..<3 { #expect(try await look(at: post(1_001, by: Self.bob), with: fetcher) != nil) }
        #expect(api.state.withLock { $0.userLookups.count } == 1, "one refused lookup, no loop")
        #expect(api.state.withLock { $0.lookups.count } == 1)
    }
}
