import Foundation
import Testing
import TwfeedBilling
@testable import TwfeedCore
@testable import TwfeedStore
import TwfeedReader

/// `twfeed usage`'s table: one format for every amount, and the emulator's play money
/// labelled as such.
struct UsageTableTests {
    static let noon = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 11:06:40 UTC

    func table(prices: Prices = .published, baseURL: String? = nil) async throws -> String {
        let database = try AppDatabase.inMemory()
        var bill = BillableAnswer(source: .home)
        bill.read(.postRead, [1, 2, 3])
        try await database.recordSpend(bill, prices: prices, now: Self.noon)
        var config = TwfeedConfig(environment: ["HOME": "/home/ada"])
        config.api.budget.monthlyUSD = MicroUSD(micros: 10_000_000)
        config.api.baseURL = baseURL
        return try await UsageReport.read(config: config, database: database, now: Self.noon, days: 2).table
    }

    /// The decimals of every dollar amount in `text`.
    func decimals(_ text: String) -> Set<Int> {
        Set(text.matches(of: /\$\d+\.(\d+)/).map { $0.output.1.count })
    }

    @Test func everyAmountHasTheDecimalsOfTheMostExactOne() async throws {
        let table = try await table()
        // $0.015 spent beside a budget's daily allowance of $0.76923…: all with 3 decimals.
        #expect(decimals(table) == [3], "\(table)")
        #expect(table.contains("$0.015 spent") && table.contains("budget $10.000, $9.985 left"), "\(table)")
        #expect(table.contains(" more allowed today)"))

        // A finer price override: every amount shows its fourth decimal.
        let fine = try await self.table(prices: Prices(postRead: MicroUSD(micros: 500)))
        #expect(decimals(fine) == [4], "\(fine)")
        #expect(fine.contains("$0.0015 spent"), "\(fine)")
    }

    /// The outbox's deletions and photo uploads are counted per day, with what they cost:
    /// a deletion at `api.prices.postDelete`, an upload at nothing unless priced.
    @Test func usageJSONCountsTheOutboxsDeletionsAndUploads() async throws {
        let database = try AppDatabase.inMemory()
        var deletion = BillableAnswer(source: .outbox)
        deletion.created = [.postDelete]
        try await database.recordSpend(deletion, prices: .published, now: Self.noon)
        for _ in 1 ... 2 {
            var upload = BillableAnswer(source: .outbox)
            upload.created = [.mediaUpload]
            try await database.recordSpend(upload, prices: .published, now: Self.noon)
        }
        let config = TwfeedConfig(environment: ["HOME": "/home/ada"])
        let json = try await UsageReport.read(config: config, database: database, now: Self.noon, days: 1).json
        let outbox = json["days"]?.array?.first?["sources"]?["outbox"]
        #expect(outbox?["postsDeleted"] == .number("1"), "\(json)")
        #expect(outbox?["uploads"] == .number("2"), "\(json)")
        #expect(outbox?["usd"] == .number("0.01"), "\(json)")
    }

    @Test func theEmulatorsAmountsAreLabelledAsNotRealMoney() async throws {
        #expect(try await !table().contains("not real"))
        let emulated = try await table(baseURL: "http://127.0.0.1:8080")
        #expect(emulated.split(separator: "\n").first?.hasSuffix("(the emulator's money, not real)") == true, "\(emulated)")
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080", false), ("http://localhost:9", false), ("http://[::1]:9", false),
        ("https://api.x.com", true), ("https://proxy.example.com", true), ("http://127example.com", true),
    ])
    func onlyAnAPIOnLoopbackBillsPlayMoney(baseURL: String, real: Bool) {
        var api = TwfeedConfig.API()
        api.baseURL = baseURL
        #expect(api.billsRealMoney == real)
    }
}
