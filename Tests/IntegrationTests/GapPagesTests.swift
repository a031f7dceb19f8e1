import Foundation
import Testing
import TwfeedBilling
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore

/// Gap reads against the emulator, which refuses a `pagination_token` handed back with
/// other bounds than the query that produced it (a 400): every page of a chain is asked
/// with the first page's bounds, and every post is stored.
@Suite(.serialized, .tags(.integration))
struct GapPagesTests {
    /// 2026-11-28T12:00:00Z: three days left in November's cycle.
    static let midday = Date(timeIntervalSince1970: 1_795_867_200)

    /// A first backfill under a tiny budget leaves a gap that reaches back; once the
    /// budget is raised, the next poll reads on into it across several pages, each asked
    /// with the first page's `until_id` and the token, and every post is stored.
    @Test func aBackfillGapReadAcrossSeveralPagesStoresEveryPost() async throws {
        let world = try TestWorld(dialect: "v2", tweets: 450)
        let clock = ManualClock(now: Self.midday)
        world.serverFollows(clock)
        try world.writeConfig(["api": .object(["budget": .object(["monthlyUSD": .number("1.00")])])])
        let limited = try world.daemon(clock: clock)
        let home = try #require(limited.syncers.first { $0.feed == .home })
        #expect(try await home.poll().hold?.reason == .budget)
        let gap = try #require(try await limited.database.gaps(.home).first)
        #expect(gap.reachesBack)

        try world.writeConfig(["api": .object(["budget": .object(["monthlyUSD": .number("100")])])])
        let raised = try world.daemon(database: limited.database, clock: clock)
        let before = world.emulator.requests.count
        let outcome = try await #require(raised.syncers.first { $0.feed == .home }).poll()
        #expect(outcome.complete, "\(outcome)")
        #expect(try await raised.database.gaps(.home).isEmpty)
        let truth = Set(world.emulator.groundTruth(.home, dialect: .v2))
        let have = try await Set(raised.database.memberIDs(.home).map(\.description))
        #expect(truth.isSubset(of: have), "\(truth.subtracting(have).count) posts missing")
        let chain = world.emulator.requests.dropFirst(before).filter { $0.parameters["until_id"] != nil }
        #expect(chain.count >= 3, "several pages")
        #expect(chain.allSatisfy { $0.status == 200 && $0.parameters["until_id"] == gap.olderThanID.description })
    }

    /// `twfeed fill` reads a gap between two parts read across several pages, each asked
    /// with the gap's bounds as they were at its first page, and stores every post.
    @Test func aFillAcrossSeveralPagesStoresEveryPost() async throws {
        let world = try TestWorld(dialect: "v2", tweets: 20)
        // The cycle's last day: today's allowance is what is left of the month.
        let clock = ManualClock(now: BudgetGapTests.lastDay)
        world.serverFollows(clock)
        let free = try world.daemon(clock: clock)
        try await #require(free.syncers.first { $0.feed == .home }).poll()
        _ = world.emulator.addTweets(to: .home, count: 400)
        let spent = try await free.database.spent(from: "2026-11-01", before: "2026-12-01")
        let budget = spent + MicroUSD(micros: 400_000)
        try world.writeConfig(["api": .object(["budget": .object(["monthlyUSD": .number(budget.decimalString)])])])
        let limited = try world.daemon(database: free.database, clock: clock)
        #expect(try await #require(limited.syncers.first { $0.feed == .home }).poll().hold?.reason == .budget)
        let gap = try #require(try await limited.database.gaps(.home).first)
        #expect(!gap.reachesBack)

        try world.writeConfig(["api": .object(["budget": .object(["monthlyUSD": .number("100")])])])
        let raised = try world.daemon(database: limited.database, clock: clock)
        let filler = try #require(raised.syncers.first { $0.feed == .home })
        let before = world.emulator.requests.count
        let paid = try await filler.fill(maxSpend: MicroUSD(micros: 10_000_000), userID: try await filler.account.userID())
        #expect(paid.micros > 0)
        #expect(try await raised.database.gaps(.home).isEmpty)
        let truth = Set(world.emulator.groundTruth(.home, dialect: .v2))
        let have = try await Set(raised.database.memberIDs(.home).map(\.description))
        #expect(truth.isSubset(of: have), "\(truth.subtracting(have).count) posts missing")
        let chain = world.emulator.requests.dropFirst(before).filter { $0.endpoint == "home" }
        #expect(chain.count >= 3, "several pages")
        #expect(chain.allSatisfy { record in
            let query = record.parameters
            return record.status == 200 && query["until_id"] == gap.olderThanID.description
                && query["since_id"] == gap.newerThanID.description
        })
    }
}
