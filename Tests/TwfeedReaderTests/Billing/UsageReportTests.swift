import Foundation
import Testing
import TwfeedBilling
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStatus
@testable import TwfeedStore
import TwfeedReader
import TwfeedTesting

/// `twfeed usage` and the spend metrics read what the daemon's polls charged to the
/// ledger: what the dedup saved, the cycle's totals, and the budget gauge (there only with
/// a budget), all at read or scrape time.
struct UsageReportTests: LedgerFixture {
    /// `usage --json` shows what the dedup saved: `repeatsFree` per source and day.
    @Test func usageShowsTheRepeatsThatWereFree() async throws {
        let database = try AppDatabase.inMemory()
        try await store(database, page([30, 31]))
        try await store(database, page([31, 32]), .mentions, now: Self.noon.addingTimeInterval(60))
        let config = TwfeedConfig(environment: ["HOME": "/nonexistent"])
        let report = try await UsageReport.read(config: config, database: database, now: Self.noon.addingTimeInterval(120), days: 1)
        let sources = report.json["days"]?.array?.first?["sources"]
        #expect(sources?["home"]?["repeatsFree"] == .number("0"))
        #expect(sources?["mentions"]?["repeatsFree"] == .number("2"), "post 31 and the author came back")
        #expect(sources?["mentions"]?["ownedReads"] == .number("1"))
        #expect(sources?["retweets"]?["repeatsFree"] == .number("0"))
    }

    @Test func theBudgetGaugeFollowsTheConfigAndTheTotalsTheLedger() async throws {
        let database = try AppDatabase.inMemory()
        var bill = BillableAnswer(source: .home)
        bill.read(.postRead, [1, 2, 3])
        try await database.recordSpend(bill, prices: .published, now: Self.noon)
        var config = TwfeedConfig(environment: ["HOME": "/home/ada"])
        config.api.budget.monthlyUSD = MicroUSD(micros: 10_000_000)
        let spend = try await SpendCounts.read(config: config, database: database, now: Self.noon)
        #expect(spend.cycleStart == "2026-11-01" && spend.cycleEnd == "2026-12-01")
        #expect(spend.today == MicroUSD(micros: 15_000) && spend.cycle == MicroUSD(micros: 15_000))
        var stored = TwfeedMetrics.StoredCounts()
        stored.spend = spend
        let metrics = try PrometheusText(parsing: String(decoding: TwfeedMetrics().exposition(stored: stored), as: UTF8.self))
        #expect(metrics.value("twfeed_api_spend_usd_total", ["source": "home"]) == 0.015)
        #expect(metrics.value("twfeed_api_spend_usd_total", ["source": "outbox"]) == 0)
        #expect(metrics.value("twfeed_api_resources_total", ["kind": "post_read"]) == 3)
        #expect(metrics.value("twfeed_api_cycle_spend_usd") == 0.015)
        #expect(metrics.value("twfeed_api_budget_usd") == 10)
        #expect(spend.billingJSON["budgetUSD"] == .number("10"))
        #expect(spend.billingJSON["todayUSD"] == .number("0.015"))

        let usage = try await UsageReport.read(config: config, database: database, now: Self.noon, days: 3)
        #expect(usage.days.map(\.day) == ["2026-11-18", "2026-11-17", "2026-11-16"])
        #expect(usage.json["cycle"]?["leftUSD"] == .number("9.985"))
        #expect(usage.json["days"]?.array?.first?["sources"]?["home"]?["postReads"] == .number("3"))
        #expect(usage.table.contains("home"))
    }
}
