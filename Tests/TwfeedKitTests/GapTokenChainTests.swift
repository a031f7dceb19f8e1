import Foundation
import Testing
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
import TwfeedBilling
import TwfeedStore

/// A page token belongs to the query that produced it (a server may make it a position in
/// that query's results): the gap reads, which move the gap's stored bound down page by
/// page, still ask every page with the bounds of the chain's first.
struct GapTokenChainTests {
    /// A gap read follows its tokens with the first page's bounds: a token belongs to the
    /// query that made it. The gap's stored bound still moves down page by page.
    @Test func aGapReadSendsEveryTokenWithItsFirstPagesBounds() async throws {
        let fixture = try SyncFixture(pageSize: 10)
        let all = fixture.api.add(100, to: .home)
        #expect(try await BackfillGapTests.syncer(fixture, budget: MicroUSD(micros: 10_200_000)).poll().hold?.reason == .budget)
        let gap = try #require(try await fixture.database.gaps(.home).first)
        fixture.clock.advance(by: 86_400)
        let before = fixture.api.requestCount
        try await BackfillGapTests.syncer(fixture, budget: nil).poll()
        let chain = fixture.api.queries.dropFirst(before).filter { $0.untilID != nil || $0.pageToken != nil }
        #expect(chain.count > 2)
        #expect(chain.allSatisfy { $0.untilID == gap.olderThanID && $0.sinceID == nil })
        #expect(chain.first?.pageToken == nil && chain.dropFirst().allSatisfy { $0.pageToken != nil })
        #expect(try await fixture.database.memberIDs(.home).count == all.count)
        #expect(try await fixture.database.gaps(.home).isEmpty)
    }

    /// `fill` too: each gap's pages are asked with the bounds its first page had.
    @Test func fillSendsEveryTokenWithItsFirstPagesBounds() async throws {
        let fixture = try SyncFixture(pageSize: 10)
        fixture.api.add(20, to: .home)
        try await BackfillGapTests.syncer(fixture, budget: nil).poll()
        let newest = try #require(try await fixture.database.syncState(.home).newestID)
        let added = fixture.api.add(200, to: .home)
        #expect(try await BackfillGapTests.syncer(fixture, budget: MicroUSD(micros: 10_200_000)).poll().hold?.reason == .budget)
        let gap = try #require(try await fixture.database.gaps(.home).first)
        #expect(gap.newerThanID == newest)
        let before = fixture.api.requestCount
        let syncer = BackfillGapTests.syncer(fixture, budget: nil)
        let paid = try await syncer.fill(maxSpend: MicroUSD(micros: 50_000_000), userID: FakeTimelineAPI.me.id)
        #expect(paid.micros > 0)
        let chain = fixture.api.queries.dropFirst(before)
        #expect(chain.count > 2)
        #expect(chain.allSatisfy { $0.untilID == gap.olderThanID && $0.sinceID == newest })
        #expect(try await fixture.database.gaps(.home).isEmpty)
        #expect(Set(added).isSubset(of: Set(try await fixture.database.memberIDs(.home))))
    }
}
