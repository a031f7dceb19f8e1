import Foundation
import Testing
import TwfeedBilling
import TwfeedEmulator
import TwfeedTesting

@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore

/// The defaults spend only what the timelines make necessary (docs/COSTS.md), against
/// the emulator's own bill in both dialects.
@Suite(.serialized, .tags(.integration))
struct CheapByDesignTests {
    /// Moves both clocks to just after the next 00:00 UTC: a new billing day.
    func nextUTCDay(_ clock: ManualClock, _ world: TestWorld) {
        let midnight = (clock.now().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 + 86_400
        clock.advance(to: Date(timeIntervalSince1970: midnight + 60))
        world.serverFollows(clock)
    }

    /// A repost today of one of my months-old posts is in the retweets feed after one poll
    /// interval, without a walk through retweets-of-me: v2 lists it first (a small page);
    /// v1.1 lists it by id, below the first page, and the own originals' repost counts
    /// (owned reads, re-read free the same UTC day) show it.
    @Test(arguments: ["v2", "v1.1"])
    func aRepostOfAMonthsOldPostIsTaggedWithinOnePollInterval(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 400)
        let clock = ManualClock(now: Date())
        world.serverFollows(clock)
        let daemon = try world.daemon(clock: clock)
        let retweets = try #require(daemon.syncers.first { $0.feed == .retweets })
        #expect(try await retweets.poll().complete)
        clock.advance(by: 15)
        #expect(try await retweets.poll().complete)

        let old = try #require(world.emulator.retweetOldTweet())
        let tweet = try #require(world.emulator.tweet(old))
        #expect(tweet.retweetCount == 1, "nobody had reposted it before")
        #expect(try await !daemon.database.memberIDs(.retweets).map(\.description).contains(old))
        if dialect == "v1.1" {
            let position = try #require(world.emulator.groundTruth(.retweets, dialect: .v1_1).firstIndex(of: old))
            #expect(position >= 100, "below v1.1's first page: only a deep read reaches it")
        }
        let before = world.emulator.requests.count
        clock.advance(by: 15)
        #expect(try await retweets.poll().complete)
        #expect(try await daemon.database.memberIDs(.retweets).map(\.description).contains(old))
        let feedReads = world.emulator.requests.dropFirst(before).filter {
            $0.path.contains("reposts_of_me") || $0.path.contains("retweets_of_me")
        }
        if dialect == "v2" {
            #expect(feedReads.count <= 2)
            #expect(feedReads.allSatisfy { $0.query.contains("max_results=10") }, "small pages once caught up")
        } else {
            #expect(feedReads.count == 1)
            #expect(feedReads.allSatisfy { $0.query.contains("since_id=") }, "never re-read without since_id")
        }
        #expect(!world.sink.lines.contains { $0.contains("poll.full_walk") && !$0.contains("via=own_posts") })
    }

    /// A day of polls, the home feed growing by posts of authors already stored: each post
    /// is paid once, v2 buys none of the authors again (stored within
    /// `images.revalidateDays`), v1.1 each at most once, and the ledger is the bill.
    @Test(arguments: ["v2", "v1.1"])
    func aDayOfPollsPaysEachPostOnceAndNoFreshAuthor(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 100)
        let clock = ManualClock(now: Date())
        world.serverFollows(clock)
        let daemon = try world.daemon(clock: clock)
        for syncer in daemon.syncers { try await syncer.poll() }
        let authors = try await Array(Set(daemon.database.feedItems(.home, limit: 100).compactMap { $0.author?.id.description }).sorted().prefix(5))
        #expect(authors.count == 5)

        nextUTCDay(clock, world)
        world.emulator.resetBill()
        let day = BillingCycle.utcDay(of: clock.now())
        var added = 0
        for step in 0..<96 {
            let author = authors[step % authors.count]
            added += world.emulator.addTweets(to: .home, count: 3, by: author)?.count ?? 0
            for syncer in daemon.syncers { try await syncer.poll() }
            clock.advance(by: 900)
            world.serverFollows(clock)
            if BillingCycle.utcDay(of: clock.now()) != day { break }
        }
        let bill = world.emulator.bill()
        let today = bill.day(day)
        let home = bill.endpoint(.home)
        #expect(home.count(.postRead) >= added, "every new post once")
        #expect(home.deduplicated == 0 || dialect == "v1.1", "v2 home never reads a post twice")
        if dialect == "v2" {
            #expect(home.count(.userRead) == 0, "no author expanded")
            #expect(bill.endpoint(.users).count(.userRead) == 0, "every author stored and fresh: none bought")
        } else {
            #expect(home.count(.userRead) <= authors.count + 1, "each embedded author at most once a day")
        }
        let rows = try await daemon.database.spend(since: day).filter { $0.day == day }
        let ours = rows.reduce(MicroUSD.zero) { $0 + $1.cost }
        #expect(Int(ours.micros) == today.micros, "twfeed \(ours) vs the emulator's \(today.usd)")
        for (kind, emulated) in LedgerIntegrationTests.kinds {
            #expect(rows.filter { $0.kind == kind }.reduce(0) { $0 + $1.resources } == today.count(emulated), "\(kind.rawValue)")
        }
    }

    /// v2: an author not stored is looked up once (`GET /2/users?ids=`), charged to the
    /// feed; after `images.revalidateDays` a stored one is bought again, once.
    @Test func aNewOrStaleAuthorIsLookedUpOnceAndChargedToTheFeed() async throws {
        let world = try TestWorld(dialect: "v2", tweets: 60, configure: { $0.extraUsers = 20 })
        let clock = ManualClock(now: Date())
        world.serverFollows(clock)
        let daemon = try world.daemon(clock: clock)
        for syncer in daemon.syncers { try await syncer.poll() }
        #expect(try await daemon.database.feedItems(.home, limit: 1000).allSatisfy { $0.author != nil })
        func lookups() -> Int { world.emulator.requests.filter { $0.path == "/2/users" }.count }
        let lookupsBefore = lookups()
        #expect(lookupsBefore > 0)

        let stored = try await Set(daemon.database.feedItems(.home, limit: 1000).compactMap { $0.author?.id.description })
        nextUTCDay(clock, world)
        let day = BillingCycle.utcDay(of: clock.now())
        let home = try #require(daemon.syncers.first { $0.feed == .home })
        // Not the account itself: its own user is read daily (`users/me`), so never stale.
        // Sorted, so that every run picks the same author (a Set's order changes per run).
        let own = try await daemon.database.account()?.userID.description
        let author = try #require(stored.filter { $0 != own }.sorted().first)
        let new = try #require(world.emulator.addTweets(to: .home, count: 1, by: author))
        try await home.poll()
        #expect(lookups() == lookupsBefore, "a fresh author: no lookup")
        #expect(try await daemon.database.feedItems(.home, limit: 1).first?.tweet.id.description == new.first)

        clock.advance(by: Double(try world.config.images.revalidateDays) * 86_400)
        world.serverFollows(clock)
        let staleDay = BillingCycle.utcDay(of: clock.now())
        world.emulator.addTweets(to: .home, count: 2, by: author)
        try await home.poll()
        #expect(lookups() == lookupsBefore + 1, "stale: looked up again")
        // The account's own daily users/me is charged to `account`; the author to the feed.
        let rows = try await daemon.database.spend(since: day).filter { $0.day == staleDay && $0.kind == .userRead && $0.source != .account }
        #expect(rows.map(\.source) == [.home])
        #expect(rows.first?.resources == 1)
    }
}
