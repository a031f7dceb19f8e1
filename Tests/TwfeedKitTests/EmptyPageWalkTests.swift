import Foundation
import Testing
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
import TwfeedBilling
import TwfeedStore

/// An empty page that carries a `next_token` is not the end of a walk: v2 removes deleted
/// and excluded posts after the page is cut (x-api.md), so what lies below it is still to
/// be read. Only a page with posts, all of them stored, is "a page that brings nothing new".
struct EmptyPageWalkTests {
    /// My newest 100 posts are reposts: `exclude=retweets` leaves the first page of own
    /// originals empty, with a token. The deep check reads on below it and tags an old
    /// original someone reposted; the walk is complete only then.
    @Test func theDeepCheckReadsOnPastAnEmptyPageOfMyOwnReposts() async throws {
        let fixture = try SyncFixture(sinceIDSupported: false)
        let own = fixture.api.addOwnOriginals(150)
        fixture.api.addOwnReposts(100)
        fixture.api.state.withLock { $0.retweetCounts[own[120]] = 2 }
        let outcome = try await fixture.ownedRetweetsSyncer().poll()
        #expect(outcome.complete)
        #expect(fixture.api.state.withLock { $0.ownOriginalsCalls } == 3, "the empty page, then two of originals")
        #expect(try await fixture.database.memberIDs(.retweets).contains(own[120]))
        #expect(try await fixture.database.syncState(.retweets).lastFullWalkAt == fixture.clock.now())
        #expect(fixture.sink.events("poll.full_walk").first?.contains("pages=3") == true)
    }

    /// Every poll's check reads my newest own originals: when my newest posts are all
    /// reposts (a page left empty once they are excluded), it reads on to the first page
    /// that holds originals, and finds one reposted there, without the deep check.
    @Test func everyPollsCheckReadsOnToMyNewestOriginals() async throws {
        let fixture = try SyncFixture(sinceIDSupported: false)
        let own = fixture.api.addOwnOriginals(150)
        fixture.api.addOwnReposts(100)
        var state = try await fixture.database.syncState(.retweets)
        state.lastFullWalkAt = fixture.clock.now().addingTimeInterval(-2 * 86_400)
        try await fixture.database.saveSyncState(state)
        fixture.api.state.withLock { $0.retweetCounts[own[149]] = 1 }
        let outcome = try await fixture.ownedRetweetsSyncer().poll()
        #expect(outcome.complete)
        #expect(fixture.api.state.withLock { $0.ownOriginalsCalls } == 2, "the empty page, then the newest originals; no deep check")
        #expect(try await fixture.database.memberIDs(.retweets).contains(own[149]))
        #expect(fixture.sink.events("poll.full_walk").isEmpty)
    }

    /// The same, under a budget: every page, the empty one included, is admitted through
    /// the gate at its worst case before it is asked for. The empty page costs nothing (an
    /// answer with no data is free), so the day's allowance pays for the page below it,
    /// and the one after that is held: the walk is not recorded done.
    @Test func theEmptyPageGoesThroughTheBudgetLikeAnyOther() async throws {
        let fixture = try SyncFixture(sinceIDSupported: false)
        fixture.api.addOwnOriginals(150)
        fixture.api.addOwnReposts(100)
        // 2027-01-15, 17 days left: $2.55 a month leaves $0.15 a day, one page of 100
        // owned reads ($0.10) at its worst case, not two.
        let gate = BillingGateTests.gate(fixture.database, clock: fixture.clock, budget: MicroUSD(micros: 2_550_000), readers: [.retweets])
        let outcome = try await fixture.ownedRetweetsSyncer(gate: gate).poll()
        #expect(outcome.hold?.reason == .budget)
        #expect(fixture.api.state.withLock { $0.ownOriginalsCalls } == 2, "the empty page, then one page of originals")
        let owned = try await fixture.database.spend(since: "2000-01-01").first { $0.source == .retweets && $0.kind == .ownedRead }
        #expect(owned?.resources == 100)
        #expect(try await fixture.database.syncState(.retweets).lastFullWalkAt == nil)
    }

    /// Without `api.ownsApp`, the full walk of reposts_of_me reads past a first page whose
    /// posts were all removed after it was cut.
    @Test func theFullWalkReadsOnPastAnEmptyPage() async throws {
        let fixture = try SyncFixture()
        let ids = fixture.api.add(250, to: .retweets).sorted(by: >)
        fixture.api.state.withLock { $0.removedAfterCut = Set(ids.prefix(100)) }
        let outcome = try await fixture.syncer(.retweets).poll()
        #expect(outcome.complete)
        #expect(outcome.requests == 4, "the own originals, then three pages, the first empty")
        #expect(try await fixture.database.memberIDs(.retweets).count == 150)
        #expect(try await fixture.database.syncState(.retweets).lastFullWalkAt == fixture.clock.now())
    }

    /// v2 reposts_of_me once caught up: a top page emptied after it was cut does not count
    /// as "nothing new"; the page below it brings a post newly listed, and the walk stops
    /// only after a page whose posts are all known.
    @Test func theWalkFromTheTopGoesOnPastAnEmptyPage() async throws {
        let fixture = try SyncFixture(pageSize: 10, sinceIDSupported: false)
        let ids = fixture.api.add(30, to: .retweets).sorted(by: >)
        let relisted = ids[5]
        fixture.api.state.withLock { $0.tweets[.retweets]?.removeAll { $0 == relisted } }
        let syncer = fixture.syncer(.retweets, interval: 600)
        #expect(try await syncer.poll().complete)
        #expect(try await !fixture.database.memberIDs(.retweets).contains(relisted))

        let hidden = fixture.api.add(10, to: .retweets)
        fixture.api.state.withLock {
            $0.removedAfterCut = Set(hidden)
            $0.tweets[.retweets, default: []].append(relisted)
        }
        fixture.clock.advance(by: 600)
        let before = fixture.api.requestCount
        let outcome = try await syncer.poll()
        #expect(outcome.complete)
        #expect(try await fixture.database.memberIDs(.retweets).contains(relisted))
        #expect(fixture.api.requestCount - before == 3, "the empty page, the one with the post, one with nothing new")
    }
}
