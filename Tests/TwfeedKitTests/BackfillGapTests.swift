import Foundation
import Testing
import TwfeedBilling
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// A first backfill the budget stops: what lies below the posts read is a gap at once
/// (no lower end: it reaches back as far as the API does), and the next day's allowance
/// reads on into it, so it shrinks, and goes when the API's reach ends.
struct BackfillGapTests {
    /// Home read through a gate with `budget` a month; pages of 10 posts (by one author):
    /// each costs $0.06 and is admitted at its worst case, $0.30.
    static func syncer(_ fixture: SyncFixture, budget: MicroUSD?) -> FeedSyncer {
        let gate = BillingGateTests.gate(fixture.database, clock: fixture.clock, budget: budget, readers: [.home])
        return FeedSyncer(
            feed: .home, api: fixture.api,
            account: AccountResolver(api: fixture.api, database: fixture.database, accessToken: "token", logger: fixture.logger),
            database: fixture.database, clock: fixture.clock, interval: 120, logger: fixture.logger, gate: gate)
    }

    @Test func aFirstBackfillStoppedByTheBudgetIsAGapAtOnceThatTheNextDayReadsOnInto() async throws {
        let fixture = try SyncFixture(pageSize: 10)
        let all = fixture.api.add(200, to: .home)
        // 2027-01-15, 17 days left in the cycle: $10.20 leaves about $0.60 a day, two
        // pages' worst case, and the charges of six.
        let syncer = Self.syncer(fixture, budget: MicroUSD(micros: 10_200_000))
        let first = try await syncer.poll()
        #expect(first.hold?.reason == .budget)
        let read = try await fixture.database.memberIDs(.home)
        #expect(read.count > 0 && read.count < 100)
        #expect(Set(read) == Set(all.sorted(by: >).prefix(read.count)), "the newest posts")
        let gaps = try await fixture.database.gaps(.home)
        #expect(gaps.count == 1)
        let gap = try #require(gaps.first)
        #expect(gap.reachesBack && gap.reason == .budget)
        #expect(gap.olderThanID == read.min())
        #expect(all.filter { !read.contains($0) }.allSatisfy(gap.contains), "every post not read lies in it")
        #expect(fixture.sink.events("gap.recorded").count == 1)
        #expect(fixture.sink.events("gap.recorded").first?.contains("newer_than_id=none") == true)
        #expect(try await fixture.database.syncState(.home).newestID == all.max(), "the range is closed at its top")

        // Later the same day: held, the gap as it was.
        fixture.clock.advance(by: 600)
        try await syncer.poll()
        #expect(try await fixture.database.gaps(.home) == gaps)

        // The next UTC day: the new posts first, then on into the gap.
        fixture.clock.advance(by: 86_400)
        let new = fixture.api.add(3, to: .home)
        try await syncer.poll()
        let now = try await fixture.database.memberIDs(.home)
        #expect(Set(new).isSubset(of: Set(now)))
        let shrunk = try #require(try await fixture.database.gaps(.home).first)
        #expect(shrunk.id == gap.id && shrunk.reachesBack)
        #expect(shrunk.olderThanID < gap.olderThanID)
        #expect(shrunk.olderThanID == now.min())
        #expect(now.count > read.count + new.count)
        let spent = try await fixture.database.spent(from: "2027-01-01", before: "2027-02-01")
        #expect(spent <= MicroUSD(micros: 10_200_000))

        // Without a budget the rest is read to the API's end and the gap goes.
        fixture.clock.advance(by: 600)
        try await Self.syncer(fixture, budget: nil).poll()
        #expect(try await fixture.database.gaps(.home).isEmpty)
        #expect(try await fixture.database.memberIDs(.home).count == all.count + new.count)
        #expect(fixture.sink.events("gap.filled").count == 1)
    }

    /// A gap between two parts read is not read on unasked: `fill` reads it.
    @Test func aGapBetweenTwoReadPartsWaitsForFill() async throws {
        let fixture = try SyncFixture(pageSize: 10)
        fixture.api.add(20, to: .home)
        try await Self.syncer(fixture, budget: nil).poll()
        let old = try await fixture.database.memberIDs(.home)
        fixture.api.add(200, to: .home)
        let syncer = Self.syncer(fixture, budget: MicroUSD(micros: 10_200_000))
        #expect(try await syncer.poll().hold?.reason == .budget)
        let gap = try #require(try await fixture.database.gaps(.home).first)
        #expect(!gap.reachesBack && gap.newerThanID == old.max())
        fixture.clock.advance(by: 86_400)
        try await syncer.poll()
        #expect(try await fixture.database.gaps(.home).first == gap, "untouched until fill")
    }

    /// A page inside the gap that comes back empty with a token (posts removed after it
    /// was cut) does not end the gap: the pages after it are read.
    @Test func anEmptyPageWithATokenDoesNotEndTheGap() async throws {
        let fixture = try SyncFixture(pageSize: 10)
        let all = fixture.api.add(100, to: .home)
        #expect(try await Self.syncer(fixture, budget: MicroUSD(micros: 10_200_000)).poll().hold?.reason == .budget)
        #expect(try await fixture.database.gaps(.home).count == 1)
        fixture.api.state.withLock { $0.emptyPagesWithToken = 2 }
        fixture.clock.advance(by: 86_400)
        try await Self.syncer(fixture, budget: nil).poll()
        #expect(try await fixture.database.memberIDs(.home).count == all.count)
        #expect(try await fixture.database.gaps(.home).isEmpty)
    }
}
