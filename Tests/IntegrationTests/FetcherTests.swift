import Foundation
import Testing
import TwfeedBilling
import TwfeedEmulator
import TwfeedTesting

@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore

/// The fetcher against the emulator, both dialects: faults are read by id within the
/// bill, a reply chain whose ancestors are in no timeline is shown whole, a gone post is
/// shown with the API's reason and not asked for again, each post costs one lookup read.
@Suite(.serialized, .tags(.integration))
struct FetcherTests {
    func ids(_ conversation: Conversation) -> [String] {
        conversation.ancestors.map { ancestor in
            switch ancestor {
            case .stored(let item): item.tweet.id.description
            case .missing(let id, let unavailable): "\(id)" + (unavailable == nil ? "?" : "!")
            }
        }
    }

    /// The daemon on a fresh emulator with the prefetch off (the server's clock its own),
    /// after a poll of home whose newest post answers a conversation of `depth` posts.
    func polledChain(dialect: String, depth: Int) async throws -> (TestWorld, ManualClock, Daemon, EmulatedReplyChain) {
        let world = try TestWorld(dialect: dialect, tweets: 20, extraConfig: ["graph": .object(["prefetchDepth": .number("0")])])
        let clock = ManualClock(now: Date())
        world.serverFollows(clock)
        let daemon = try world.daemon(clock: clock)
        let chain = try #require(world.emulator.addReplyChain(to: .home, depth: depth))
        _ = try await daemon.syncers.first { $0.feed == .home }!.poll()
        return (world, clock, daemon, chain)
    }

    @Test(arguments: ["v2", "v1.1"])
    func aLookedAtReplyChainIsFetchedWholeAndEachPostPaidOnce(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 20, extraConfig: ["graph": .object(["prefetchDepth": .number("0")])])
        let clock = ManualClock(now: Date())
        world.serverFollows(clock)
        let daemon = try world.daemon(clock: clock)
        let fetcher = try #require(daemon.fetcher)
        let home = try #require(daemon.syncers.first { $0.feed == .home })
        _ = try await home.poll()
        let chain = try #require(world.emulator.addReplyChain(to: .home, depth: 5))
        clock.advance(by: 200)
        world.serverFollows(clock)
        _ = try await home.poll()
        let top = try #require(TweetID(chain.id))
        #expect(try await daemon.database.memberIDs(.home).contains(top))
        // Nothing fetched by itself with the prefetch off. v2 sends the parent along with
        // the page (`referenced_tweets.id`); above it, and in v1.1 from the parent up, faults.
        #expect(try await fetcher.cycle() == nil)
        let sent = dialect == "v2" ? 1 : 0
        #expect(try ids(#require(try await daemon.database.conversation(top))) == Array(chain.ancestors.prefix(sent)) + ["\(chain.ancestors[sent])?"])

        // A look (what the page and twfeed show do) asks; the fetcher walks the whole way up.
        world.emulator.resetBill()
        let dayStart = BillingCycle.utcDay(of: clock.now())
        let spentBefore = try await daemon.database.spend(since: dayStart)
        try await daemon.database.requestFetch([TweetID(chain.ancestors[sent])!], reason: .asked, now: clock.now())
        #expect(try await fetcher.cycle() == nil)
        let whole = try #require(try await daemon.database.conversation(top))
        #expect(ids(whole) == chain.ancestors, "the chain, parent first, up to the root")
        #expect(try await daemon.database.pendingFetches(limit: 10, now: clock.now()).isEmpty)

        // Each post cost one post read, charged to lookups; the ledger is the bill.
        let rows = try await daemon.database.spend(since: dayStart)
        let lookups = rows.filter { $0.source == .lookups }
        let fetched = chain.ancestors.count - sent
        #expect(lookups.filter { $0.kind == .postRead }.map(\.resources).reduce(0, +) == fetched)
        let spent = rows.reduce(MicroUSD.zero) { $0 + $1.cost }.micros - spentBefore.reduce(MicroUSD.zero) { $0 + $1.cost }.micros
        #expect(Int(spent) == world.emulator.bill().total.micros, "the ledger is the bill")
        let lookupRequests = world.emulator.requests.filter { $0.endpoint == "lookup" }
        // Each parent is known once its child is read: a step up a request (v2 sends the
        // parent of each post read along, so two steps).
        #expect(lookupRequests.count == (dialect == "v2" ? (fetched + 1) / 2 : fetched))
    }

    @Test(arguments: ["v2", "v1.1"])
    func aGoneAncestorShowsTheReasonAndIsNotAskedAgainForADay(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 20)
        let clock = ManualClock(now: Date())
        world.serverFollows(clock)
        let daemon = try world.daemon(clock: clock)
        let fetcher = try #require(daemon.fetcher)
        let home = try #require(daemon.syncers.first { $0.feed == .home })
        let chain = try #require(world.emulator.addReplyChain(to: .home, depth: 3))
        #expect(world.emulator.deleteTweet(chain.ancestors[1]))
        _ = try await home.poll()
        let top = try #require(TweetID(chain.ancestors.count > 0 ? chain.id : ""))
        // The prefetch (depth 1) reads the parent; a look asks for the rest.
        #expect(try await fetcher.cycle() == nil)
        try await daemon.database.requestFetch([TweetID(chain.ancestors[1])!], reason: .asked, now: clock.now())
        #expect(try await fetcher.cycle() == nil)
        let conversation = try #require(try await daemon.database.conversation(top))
        #expect(ids(conversation) == [chain.ancestors[0], chain.ancestors[1] + "!"])
        guard case .missing(_, let reason?) = conversation.ancestors.last else { Issue.record("no reason"); return }
        #expect(!reason.isEmpty)

        // Asked again within the day: no request goes out.
        let before = world.emulator.requests.count
        try await daemon.database.requestFetch([TweetID(chain.ancestors[1])!], reason: .asked, now: clock.now())
        #expect(try await fetcher.cycle() == nil)
        #expect(world.emulator.requests.count == before)
        // A day later it may be asked again.
        clock.advance(by: 86_400 + 60)
        #expect(try await daemon.database.requestFetch([TweetID(chain.ancestors[1])!], reason: .asked, now: clock.now()) == 1)
    }

    /// v2: posts read by id whose authors the answer left out are shown with their
    /// authors, looked up (`GET /2/users?ids=`) and charged to `lookups` as user reads,
    /// each once; the ledger is the bill.
    @Test func fetchedPostsWhoseAuthorsTheAnswerLeftOutAreShownWithTheirAuthors() async throws {
        let (world, clock, daemon, chain) = try await polledChain(dialect: "v2", depth: 4)
        let fetcher = try #require(daemon.fetcher)
        let authors = Set(chain.ancestors.compactMap { world.emulator.tweet($0)?.authorID })
        for author in authors { #expect(world.emulator.leaveUserOutOfLookups(author)) }
        // The parent came with the page and its author was looked up with it; the others not.
        let stored = try await daemon.database.freshUsers(authors.compactMap(UserID.init), since: clock.now().addingTimeInterval(-60))
        let unstored = authors.filter { !stored.contains(UserID($0)!) }
        #expect(!unstored.isEmpty)

        world.emulator.resetBill()
        let dayStart = BillingCycle.utcDay(of: clock.now())
        let before = try await daemon.database.spend(since: dayStart)
        try await daemon.database.requestFetch([TweetID(chain.ancestors[1])!], reason: .asked, now: clock.now())
        #expect(try await fetcher.cycle() == nil)
        let conversation = try #require(try await daemon.database.conversation(TweetID(chain.id)!))
        #expect(ids(conversation) == chain.ancestors)
        for case .stored(let item) in conversation.ancestors {
            #expect(item.author?.username == world.emulator.tweet(item.tweet.id.description)?.authorUsername, "\(item.tweet.id)")
        }

        let bill = world.emulator.bill()
        #expect(bill.endpoint(.users).count(.userRead) == unstored.count, "each author left out and not stored, once")
        let rows = try await daemon.database.spend(since: dayStart)
        func userReads(_ rows: [SpendRow]) -> Int { rows.filter { $0.source == .lookups && $0.kind == .userRead }.map(\.resources).reduce(0, +) }
        #expect(userReads(rows) - userReads(before) == unstored.count)
        let spent = rows.reduce(MicroUSD.zero) { $0 + $1.cost }.micros - before.reduce(MicroUSD.zero) { $0 + $1.cost }.micros
        #expect(Int(spent) == bill.total.micros, "the ledger is the bill")
    }

    /// A billing refusal on a lookup: the fetcher holds until the refusal's time, sends
    /// nothing meanwhile however often it is rung, and keeps what was asked for.
    @Test(arguments: ["v2", "v1.1"])
    func aRefusedLookupHoldsTheFetcherAndKeepsTheQueue(dialect: String) async throws {
        let (world, clock, daemon, chain) = try await polledChain(dialect: dialect, depth: 2)
        let fetcher = try #require(daemon.fetcher)
        let wanted = TweetID(chain.ancestors[1])!
        world.emulator.inject(.creditsDepleted(), times: 100, pathContains: dialect == "v2" ? "/2/tweets" : "statuses/lookup", method: "GET")
        try await daemon.database.requestFetch([wanted], reason: .asked, now: clock.now())
        let until = try #require(try await fetcher.cycle(), "held")
        #expect(until > clock.now())
        for _ in 0 ..< 5 { #expect(try await fetcher.cycle() != nil) }
        #expect(world.emulator.requests.filter { $0.endpoint == "lookup" }.count == 1, "one refused request, no loop")
        #expect(try await daemon.database.pendingFetches(limit: 10, now: clock.now()).map(\.id) == [wanted])

        // Credits back and the hold over: a feed's free probe ends the state (a lookup,
        // which is paid, leaves the probe to a feed), then the post comes.
        world.emulator.clearFaults()
        clock.advance(by: until.timeIntervalSince(clock.now()) + 1)
        world.serverFollows(clock)
        #expect(try await fetcher.cycle() != nil, "the due probe is a feed's")
        #expect(world.emulator.requests.filter { $0.endpoint == "lookup" }.count == 1)
        _ = try await daemon.syncers.first { $0.feed == .home }!.poll()
        #expect(try await fetcher.cycle() == nil)
        #expect(try await daemon.database.feedItem(wanted) != nil)
        #expect(try await daemon.database.pendingFetches(limit: 10, now: clock.now()).isEmpty)
    }

    /// v2 says in the page itself (partial `errors`) when what a post points at is gone:
    /// the reader shows why at once, and nothing is paid to ask again.
    @Test func aPagesPartialErrorsMarkAGoneParentWithoutALookup() async throws {
        let world = try TestWorld(dialect: "v2", tweets: 20)
        let clock = ManualClock(now: Date())
        world.serverFollows(clock)
        let daemon = try world.daemon(clock: clock)
        let home = try #require(daemon.syncers.first { $0.feed == .home })
        let chain = try #require(world.emulator.addReplyChain(to: .home, depth: 2))
        #expect(world.emulator.deleteTweet(chain.ancestors[0]))
        _ = try await home.poll()
        let top = try #require(TweetID(chain.id))
        let conversation = try #require(try await daemon.database.conversation(top))
        #expect(ids(conversation) == [chain.ancestors[0] + "!"], "known gone from the page alone")
        guard case .missing(_, let reason?) = conversation.ancestors.first else { Issue.record("no reason"); return }
        #expect(reason.hasPrefix("Not Found Error"))
        let item = try #require(try await daemon.database.feedItem(top))
        #expect(item.inReplyTo?.stored == false && item.unavailable[TweetID(chain.ancestors[0])!] == reason)
        #expect(try await daemon.fetcher!.cycle() == nil)
        #expect(world.emulator.requests.filter { $0.endpoint == "lookup" }.isEmpty, "no lookup for a post the page said is gone")
    }

    /// After a poll and one prefetch cycle, the first page of each feed has no faults.
    @Test(arguments: ["v2", "v1.1"])
    func afterAPollAndAPrefetchTheFirstPagesHaveNoFaults(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 120)
        let clock = ManualClock(now: Date())
        world.serverFollows(clock)
        let daemon = try world.daemon(clock: clock)
        for syncer in daemon.syncers { _ = try await syncer.poll() }
        world.emulator.addReplyChain(to: .home, depth: 2)
        world.emulator.addReplyChain(to: .mentions, depth: 1)
        clock.advance(by: 700)
        world.serverFollows(clock)
        for syncer in daemon.syncers { _ = try await syncer.poll() }
        #expect(try await daemon.fetcher!.cycle() == nil)
        for feed in Feed.allCases {
            let faults = try await daemon.database.feedItems(feed, limit: 50).flatMap { item in item.faults.filter { item.unavailable[$0] == nil } }
            #expect(faults.isEmpty, "\(feed): \(faults)")
        }
        // Nothing is fetched twice in a day.
        let lookups = world.emulator.requests.filter { $0.endpoint == "lookup" }.count
        #expect(try await daemon.fetcher!.cycle() == nil)
        #expect(world.emulator.requests.filter { $0.endpoint == "lookup" }.count == lookups)
    }
}
