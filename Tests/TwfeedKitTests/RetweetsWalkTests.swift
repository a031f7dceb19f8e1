import Foundation
import Testing
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
import TwfeedBilling
import TwfeedStore

/// Retweets of old tweets: each poll reads the newest page of the own originals' repost
/// counts (one request, counted in `requests`) and, without `api.ownsApp`, re-reads the
/// feed's first page without since_id; a deep check on its own schedule
/// (`feeds.retweets.fullWalkHours`) finds the rest.
struct RetweetsWalkTests {
    /// Puts `id` back in the fake's retweets feed: retweeted again now (the fake lists
    /// by id, as v1.1 does, so it sits where its id puts it).
    func retweetAgain(_ fixture: SyncFixture, _ id: TweetID) {
        fixture.api.state.withLock { $0.tweets[.retweets, default: []].append(id) }
    }

    func forget(_ fixture: SyncFixture, _ id: TweetID) {
        fixture.api.state.withLock { $0.tweets[.retweets]?.removeAll { $0 == id } }
    }

    @Test func anOldTweetOnTheFirstPageIsTaggedAtTheNextPollThoughBelowSinceID() async throws {
        let fixture = try SyncFixture()
        let ids = fixture.api.add(250, to: .retweets).sorted(by: >)
        let old = ids[50]  // on the first page, below the newest id
        forget(fixture, old)
        let syncer = fixture.syncer(.retweets)
        try await syncer.poll()
        #expect(try await !fixture.database.memberIDs(.retweets).contains(old))
        retweetAgain(fixture, old)
        fixture.clock.advance(by: 600)
        let outcome = try await syncer.poll()
        #expect(try await fixture.database.memberIDs(.retweets).contains(old))
        #expect(outcome.newTweets == 1)
        #expect(outcome.complete)
        #expect(outcome.requests == 2, "the own originals, then the first page, which reached the stored newest id")
    }

    @Test func theFullWalkRunsAtStartThenOnlyEveryFullWalkHours() async throws {
        let fixture = try SyncFixture()
        let ids = fixture.api.add(250, to: .retweets).sorted(by: >)
        let deep = ids[240]  // on the third page: only a full walk reaches it
        forget(fixture, deep)
        let syncer = fixture.syncer(.retweets, interval: 600)
        let start = fixture.clock.now()
        let first = try await syncer.poll()
        #expect(first.requests == 4, "never walked: the own originals, then every page")
        #expect(try await fixture.database.syncState(.retweets).lastFullWalkAt == start)
        #expect(fixture.sink.events("poll.full_walk").count == 1)

        retweetAgain(fixture, deep)
        fixture.clock.advance(by: 3600)
        // A restart (a new syncer, as a new generation builds) does not redo the walk.
        let afterRestart = try await fixture.syncer(.retweets, interval: 600).poll()
        #expect(afterRestart.requests == 2)
        fixture.clock.advance(to: start.addingTimeInterval(24 * 3600 - 1))
        #expect(try await syncer.poll().requests == 2)
        #expect(try await !fixture.database.memberIDs(.retweets).contains(deep), "only the full walk reaches page 3")

        fixture.clock.advance(by: 1)
        let walk = try await syncer.poll()
        #expect(walk.requests == 4)
        #expect(walk.newTweets == 1)
        #expect(try await fixture.database.memberIDs(.retweets).contains(deep))
        #expect(try await fixture.database.syncState(.retweets).lastFullWalkAt == fixture.clock.now())
        #expect(fixture.sink.events("poll.full_walk").count == 2)
    }

    @Test func aShorterFullWalkHoursWalksSooner() async throws {
        let fixture = try SyncFixture()
        fixture.api.add(150, to: .retweets)
        let syncer = FeedSyncer(
            feed: .retweets, api: fixture.api,
            account: AccountResolver(api: fixture.api, database: fixture.database, accessToken: "token", logger: fixture.logger),
            database: fixture.database, clock: fixture.clock, interval: 600, fullWalkHours: 1, logger: fixture.logger)
        #expect(try await syncer.poll().requests == 3)
        fixture.clock.advance(by: 3599)
        #expect(try await syncer.poll().requests == 2)
        fixture.clock.advance(by: 1)
        #expect(try await syncer.poll().requests == 3)
    }

    /// A walk cut short keeps what it stored and is done again from the top later.
    @Test func aFullWalkCutShortIsDoneAgain() async throws {
        let fixture = try SyncFixture()
        fixture.api.add(250, to: .retweets)
        fixture.api.fail(onRequest: 2, APIError(kind: .transient, status: 503, message: "Service Unavailable"))
        let syncer = fixture.syncer(.retweets)
        let cut = try await syncer.poll()
        #expect(!cut.complete)
        #expect(try await fixture.database.syncState(.retweets).lastFullWalkAt == nil)
        fixture.clock.advance(by: 3600)
        let again = try await syncer.poll()
        #expect(again.complete)
        #expect(again.requests == 4)
        #expect(try await fixture.database.memberIDs(.retweets).count == 250)
    }

    /// With `api.ownsApp`: a months-old post of mine reposted now is tagged at the next
    /// poll from the own originals' repost counts (re-read free the same UTC day where the
    /// feed lists by id), never by walking retweets-of-me without since_id.
    @Test func aRepostOfAMonthsOldPostIsTaggedFromTheOwnOriginalsAtTheNextPoll() async throws {
        let fixture = try SyncFixture()
        fixture.api.add(150, to: .retweets)
        let old = fixture.api.addOwnOriginals(300)
        let syncer = fixture.syncer(.retweets, interval: 600, retweetsCheck: .ownOriginals)
        try await syncer.poll()
        #expect(try await fixture.database.memberIDs(.retweets).count == 150, "no own original reposted yet")
        fixture.api.state.withLock { $0.retweetCounts[old[10]] = 1 }
        fixture.clock.advance(by: 600)
        let requestsBefore = fixture.api.requestCount
        let outcome = try await syncer.poll()
        #expect(outcome.complete)
        #expect(try await fixture.database.memberIDs(.retweets).contains(old[10]))
        #expect(outcome.newTweets == 1)
        let feedQueries = fixture.api.queries.dropFirst(requestsBefore)
        #expect(feedQueries.count == 1)
        #expect(feedQueries.allSatisfy { $0.sinceID != nil }, "retweets-of-me only above since_id")
        #expect(fixture.sink.events("poll.full_walk").allSatisfy { $0.contains("via=own_posts") })

        // A new UTC day: the first poll reads the own originals again (paid once that day).
        let walks = fixture.api.state.withLock { $0.ownOriginalsCalls }
        fixture.clock.advance(by: 86_400)
        fixture.api.state.withLock { $0.retweetCounts[old[200]] = 3 }
        try await syncer.poll()
        #expect(fixture.api.state.withLock { $0.ownOriginalsCalls } > walks)
        #expect(try await fixture.database.memberIDs(.retweets).contains(old[200]))
    }

    /// Each own-originals page is charged whole to `retweets` as owned reads, reposted or not.
    @Test func theOwnOriginalsAreChargedWholeAsOwnedReads() async throws {
        let fixture = try SyncFixture()
        let own = fixture.api.addOwnOriginals(30)
        fixture.api.state.withLock { $0.retweetCounts[own[0]] = 2 }
        try await fixture.syncer(.retweets, retweetsCheck: .ownOriginals).poll()
        let rows = try await fixture.database.spend(since: "2000-01-01")
        #expect(rows.first { $0.source == .retweets && $0.kind == .ownedRead }?.resources == 30)
        #expect(try await fixture.database.memberIDs(.retweets) == [own[0]])
    }

    /// A post among my newest 100 reposted on a day the deep check does not run is in the
    /// feed at the next poll, from the newest page of own originals (one page, owned
    /// reads, charged once that day), though the feed's own list (by id, as v1.1 lists)
    /// has it far below its first page. An older one waits for the deep check.
    @Test func aRepostAmongTheNewest100IsTaggedAtTheNextPollWhateverTheListsOrder() async throws {
        let fixture = try SyncFixture(sinceIDSupported: false)
        fixture.api.add(150, to: .retweets)
        let own = fixture.api.addOwnOriginals(300)  // oldest first: own[200...] are the newest 100
        let syncer = fixture.ownedRetweetsSyncer()
        let start = fixture.clock.now()
        try await syncer.poll()
        #expect(fixture.sink.events("poll.full_walk").count == 1, "never checked: every page at first")

        fixture.clock.advance(to: BillingCycle.endOfUTCDay(start).addingTimeInterval(60))
        fixture.api.state.withLock {
            $0.retweetCounts[own[250]] = 1
            $0.retweetCounts[own[10]] = 2
            $0.tweets[.retweets, default: []] += [own[250], own[10]]
        }
        let pages = fixture.api.state.withLock { $0.ownOriginalsCalls }
        let outcome = try await syncer.poll()
        #expect(outcome.complete)
        #expect(try await fixture.database.memberIDs(.retweets).contains(own[250]))
        #expect(try await !fixture.database.memberIDs(.retweets).contains(own[10]), "below the newest page: the deep check's")
        #expect(fixture.api.state.withLock { $0.ownOriginalsCalls } == pages + 1, "one page of own originals")
        #expect(fixture.sink.events("poll.full_walk").count == 1)
        let today = BillingCycle.utcDay(of: fixture.clock.now())
        let owned = try await fixture.database.spend(since: today).first { $0.source == .retweets && $0.kind == .ownedRead }
        #expect(owned?.resources == 100, "the newest page, charged as owned reads")

        fixture.clock.advance(by: 600)
        try await syncer.poll()
        let again = try await fixture.database.spend(since: today).first { $0.source == .retweets && $0.kind == .ownedRead }
        #expect(again?.resources == 100, "read again the same UTC day: not charged again")

        fixture.clock.advance(to: start.addingTimeInterval(168 * 3600))
        try await syncer.poll()
        #expect(try await fixture.database.memberIDs(.retweets).contains(own[10]), "the weekly deep check reads every page")
        #expect(fixture.sink.events("poll.full_walk").count == 2)
    }

    /// The per-poll check goes through the billing gate: admitted at its worst case (a
    /// whole page of owned reads) or held, before any request.
    @Test func theRepostCountCheckIsHeldByTheBudgetBeforeAnyRequest() async throws {
        let fixture = try SyncFixture(sinceIDSupported: false)
        fixture.api.addOwnOriginals(30)
        // About $0.06 a day left: less than a page of 100 owned reads ($0.10).
        let gate = BillingGateTests.gate(fixture.database, clock: fixture.clock, budget: MicroUSD(micros: 1_000_000), readers: [.retweets])
        let outcome = try await fixture.ownedRetweetsSyncer(gate: gate).poll()
        #expect(outcome.hold?.reason == .budget)
        #expect(fixture.api.state.withLock { $0.ownOriginalsCalls } == 0)
        #expect(fixture.api.requestCount == 0)
    }
}
