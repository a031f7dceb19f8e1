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
@Suite(.serialized, .tags(.integration))
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
        let stored = try await daemon.database.feedStats(.home).tweets
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
        // No gap left, and still no daemon running: 69 all the same, not "nothing to read".
        let none = try Binary.run(["fill", "home", "--max-usd", "5", "--config", world.configPath])
        #expect(none.status == 69 && none.stderr.contains("the daemon is not running"), "\(none.stderr)")
        let truth = Set(world.emulator.groundTruth(.home, dialect: dialect == "v2" ? .v2 : .v1_1))
        let have = try await Set(raised.database.memberIDs(.home).map(\.description))
        #expect(truth.isSubset(of: have), "\(truth.subtracting(have).count) posts still missing")
        let ours = try await raised.database.spend(since: "2000-01-01").reduce(MicroUSD.zero) { $0 + $1.cost }
        #expect(Int(ours.micros) == world.emulator.bill().totalMicros, "the ledger is the bill")
    }

    /// 2026-11-28T12:00:00Z: three days left in November's cycle.
    static let threeDaysLeft = Date(timeIntervalSince1970: 1_795_867_200)

    /// A first start under a tiny budget: the newest page is read, and everything below it
    /// is a gap at once (no lower end), shown by `gaps`, `feed --json` and the reader,
    /// read on into by the next UTC day's allowance, and read by `fill`.
    @Test(arguments: ["v2", "v1.1"])
    func aFirstStartUnderATinyBudgetRecordsWhatItLeftUnreadAtOnce(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 600)
        let clock = ManualClock(now: Self.threeDaysLeft)
        world.serverFollows(clock)
        try world.writeConfig([
            "api": .object(["budget": .object(["monthlyUSD": .number("1.00")])]), "http": .object(["auth": .string("none")]),
        ])
        let daemon = try world.daemon(clock: clock)
        let home = try #require(daemon.syncers.first { $0.feed == .home })
        let outcome = try await home.poll()
        #expect(outcome.hold?.reason == .budget, "\(outcome)")
        let read = try await daemon.database.memberIDs(.home)
        #expect(read.count > 0 && read.count <= 10, "one page: \(read.count)")
        let truth = world.emulator.groundTruth(.home, dialect: dialect == "v2" ? .v2 : .v1_1)
        #expect(Set(read.map(\.description)) == Set(truth.prefix(read.count)), "the newest posts")
        let gap = try #require(try await daemon.database.gaps(.home).first)
        #expect(try await daemon.database.gaps(.home).count == 1)
        #expect(gap.reachesBack && gap.olderThanID == read.min())
        #expect(truth.dropFirst(read.count).allSatisfy { gap.contains(TweetID($0)!) }, "every post not read lies in it")
        #expect(try await daemon.database.billingStatus()?.state == .budgetLimited)

        let listed = try Binary.run(["gaps", "--json", "--config", world.configPath])
        let object = try JSONValue.parse(listed.stdout.trimmingCharacters(in: .newlines))
        #expect(object["newerThanId"] == .null && object["olderThanId"] == .string(gap.olderThanID.description))
        #expect(object["reason"] == .string("budget"))
        let feed = try Binary.run(["feed", "home", "--json", "--limit", "200", "--config", world.configPath])
        let lines = feed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == read.count + 1)
        #expect(lines.last?.hasPrefix(#"{"gap":"#) == true, "below the oldest post: \(lines.last ?? "")")
        let text = try Binary.run(["feed", "home", "--limit", "200", "--config", world.configPath])
        #expect(text.stdout.contains("--- not read (budget): posts older than \(gap.olderThanID), as far back as the API reaches"))
        let (server, port) = try await Binary.serve(world)
        let page = try await RawHTTP.request(port: port, "/home")
        server.terminate()
        server.waitUntilExit()
        #expect(page.text.contains(#"<li class="gap" data-older-than="\#(gap.olderThanID)">"#))
        #expect(page.text.contains("Older posts not read: budget."))

        // The next UTC day's allowance reads on into it, late in the day (what home's new
        // posts are expected to need for the rest of the day is kept for them): it shrinks.
        clock.advance(to: BillingCycle.endOfUTCDay(clock.now()).addingTimeInterval(22 * 3600))
        world.serverFollows(clock)
        try await home.poll()
        let shrunk = try #require(try await daemon.database.gaps(.home).first)
        #expect(shrunk.id == gap.id && shrunk.olderThanID < gap.olderThanID)
        #expect(try await daemon.database.memberIDs(.home).min() == shrunk.olderThanID)

        // `fill` reads it within the spend it is given (the month's budget raised).
        try world.writeConfig(["api": .object(["budget": .object(["monthlyUSD": .number("100")])])])
        let raised = try world.daemon(database: daemon.database, clock: clock)
        let filler = try #require(raised.syncers.first { $0.feed == .home })
        let paid = try await filler.fill(maxSpend: MicroUSD(micros: 500_000), userID: try await filler.account.userID())
        #expect(paid.micros > 0 && paid <= MicroUSD(micros: 500_000))
        let filled = try #require(try await raised.database.gaps(.home).first)
        #expect(filled.olderThanID < shrunk.olderThanID)
        let spent = try await raised.database.spend(since: "2000-01-01").reduce(MicroUSD.zero) { $0 + $1.cost }
        #expect(Int(spent.micros) == world.emulator.bill().totalMicros, "the ledger is the bill")
    }
}
