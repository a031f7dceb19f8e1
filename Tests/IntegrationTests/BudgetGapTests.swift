import Foundation
import Testing
import TwfeedBilling
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedReader
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// A budget that holds: a day brings more posts than the day may pay for; twfeed reads
/// the newest part, records the rest as a gap (never skipped in silence), never passes
/// the budget, and `fill` reads the gap later within the spend it is given.
@Suite(.serialized)
struct BudgetGapTests {
    /// The last day of November's cycle: today's allowance is all that is left.
    static let lastDay = Date(timeIntervalSince1970: 1_796_040_000)  // 2026-11-30T12:00:00Z

    @Test(arguments: ["v2", "v1.1"])
    func aBudgetReadsTheNewestPartAndRecordsTheRestAsAGap(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 20)
        let clock = ManualClock(now: Self.lastDay)
        world.serverFollows(clock)
        let free = try world.daemon(clock: clock)
        let home = try #require(free.syncers.first { $0.feed == .home })
        try await home.poll()
        let newestBefore = try #require(try await free.database.syncState(.home).newestID)
        let spentBefore = try await free.database.spent(from: "2026-11-01", before: "2026-12-01")

        _ = world.emulator.addTweets(to: .home, count: 150)
        // A budget with $0.40 left for the month: far less than 150 posts and their authors.
        let budget = spentBefore + MicroUSD(micros: 400_000)
        try world.writeConfig(["api": .object(["budget": .object(["monthlyUSD": .number(budget.decimalString)])])])
        let daemon = try world.daemon(database: free.database, clock: clock)
        let limited = try #require(daemon.syncers.first { $0.feed == .home })
        let outcome = try await limited.poll()
        #expect(outcome.hold?.reason == .budget, "\(outcome) \(world.sink.lines.suffix(8).joined(separator: "\n"))")

        let spent = try await daemon.database.spent(from: "2026-11-01", before: "2026-12-01")
        #expect(spent <= budget, "the ledger never passes the budget: \(spent) of \(budget)")
        #expect(world.emulator.bill().cycleMicros <= Int(budget.micros), "nor does the API's bill")
        let gaps = try await daemon.database.gaps(.home)
        #expect(gaps.count == 1)
        let gap = try #require(gaps.first)
        #expect(gap.newerThanID == newestBefore)
        #expect(world.sink.events("gap.recorded").count == 1)
        // The newest posts were read, down to the gap.
        let stored = try daemon.database.feedStats(.home).tweets
        #expect(stored > 20 && stored < 170)
        #expect(try await daemon.database.billingStatus()?.state == .budgetLimited)

        // Shown where it lies, in the feed and in `gaps`.
        let feed = try Binary.run(["feed", "home", "--json", "--limit", "200", "--config", world.configPath])
        let lines = feed.stdout.split(separator: "\n").map(String.init)
        let gapLine = try #require(lines.firstIndex { $0.hasPrefix("{\"gap\"") })
        #expect(gapLine > 0 && gapLine < lines.count - 1, "between the newest part and what was stored before")
        let listed = try Binary.run(["gaps", "--json", "--config", world.configPath])
        #expect(listed.status == 0)
        let object = try JSONValue.parse(listed.stdout.trimmingCharacters(in: .newlines))
        #expect(object["feed"] == .string("home"))
        #expect(object["olderThanId"] == .string(gap.olderThanID.description))
        let status = try Binary.run(["status", "--json", "--config", world.configPath])
        let report = try JSONValue.parse(status.stdout.trimmingCharacters(in: .newlines))
        #expect(report["feeds"]?["home"]?["gaps"] == .number("1"))
        #expect(report["billing"]?["state"] == .string("budget_limited"))

        // No daemon runs: `fill` says so (69) and asks nothing.
        let fill = try Binary.run(["fill", "home", "--max-usd", "5", "--config", world.configPath])
        #expect(fill.status == 69, "\(fill.stderr)")
        #expect(try await daemon.database.fillRequest(.home) == nil)

        // Filled within the spend the user gives (and the month's budget, raised).
        try world.writeConfig(["api": .object(["budget": .object(["monthlyUSD": .number("100")])])])
        let raised = try world.daemon(database: daemon.database, clock: clock)
        let filler = try #require(raised.syncers.first { $0.feed == .home })
        let userID = try await filler.account.userID()
        let paid = try await filler.fill(maxSpend: MicroUSD(micros: 5_000_000), userID: userID)
        #expect(paid.micros > 0 && paid <= MicroUSD(micros: 5_000_000))
        #expect(try await raised.database.gaps(.home).isEmpty)
        #expect(world.sink.events("gap.filled").count == 1)
        let truth = Set(world.emulator.groundTruth(.home, dialect: dialect == "v2" ? .v2 : .v1_1))
        let have = try Set(raised.database.memberIDs(.home).map(\.description))
        #expect(truth.isSubset(of: have), "\(truth.subtracting(have).count) posts still missing")
        let ours = try await raised.database.spend(since: "2000-01-01").reduce(MicroUSD.zero) { $0 + $1.cost }
        #expect(Int(ours.micros) == world.emulator.bill().totalMicros, "the ledger is the bill")
    }
}
