import Foundation
import Testing
import TwfeedBilling
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedReader
@testable import TwfeedStatus
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// twfeed's own ledger against the server's bill: the daemon polls every feed (twice:
/// the second poll brings nothing new and must cost nothing) and posts a status with a
/// URL; what twfeed recorded is what the emulator charged, to the micro-dollar, per kind.
@Suite(.serialized, .tags(.integration))
struct LedgerIntegrationTests {
    static let kinds: [(BillableKind, EmulatorResourceKind)] = [
        (.postRead, .postRead), (.ownedRead, .ownedRead), (.userRead, .userRead),
        (.postCreate, .postCreate), (.postCreateWithURL, .postCreateWithURL), (.postCreateSummoned, .postCreateSummoned),
    ]

    @Test(arguments: ["v2", "v1.1"])
    func theLedgerEqualsTheEmulatorsBill(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 30)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        for _ in 0 ..< 2 {
            for syncer in daemon.syncers { try await syncer.poll() }
        }
        let item = try await daemon.database.enqueue(text: "the bill, explained: https://example.com/bill", replyTo: nil, now: clock.now())
        _ = try await daemon.flusher!.flush()
        #expect(try await daemon.database.outboxItem(item.id)?.state == .sent)

        let bill = world.emulator.bill()
        let rows = try await daemon.database.spend(since: "2000-01-01")
        let ours = rows.reduce(MicroUSD.zero) { $0 + $1.cost }
        #expect(bill.total.micros > 0)
        #expect(Int(ours.micros) == bill.total.micros, "twfeed \(ours) vs the emulator's \(bill.total.usd)")
        for (kind, emulated) in Self.kinds {
            let counted = rows.filter { $0.kind == kind }.reduce(0) { $0 + $1.resources }
            #expect(counted == bill.total.count(emulated), "\(kind.rawValue)")
        }
        #expect(rows.contains { $0.source == .outbox && $0.kind == .postCreateWithURL && $0.resources == 1 })
        #expect(rows.contains { $0.source == .account && $0.kind == .userRead && $0.resources == 1 })

        let usage = try Binary.run(["usage", "--json", "--days", "2", "--config", world.configPath])
        #expect(usage.status == 0, "\(usage.stderr)")
        let json = try JSONValue.parse(usage.stdout.trimmingCharacters(in: .newlines))
        let spent = try #require(json["cycle"]?["spentUSD"])
        #expect(try MicroUSD(parsingJSON: spent.double as Any) == ours)
        #expect(json["billing"]?["state"] == .string("ok"))
        guard case .array(let days)? = json["days"] else { Issue.record("no days"); return }
        #expect(days.count == 2)
        let today = BillingCycle.utcDay(of: clock.now())
        #expect(days.first?["day"] == .string(today))
        #expect(days.first?["sources"]?["outbox"]?["postsWithURL"] == .number("1"))
        // What the dedup saved, as the emulator counted it: every resource returned again.
        let repeats = days.compactMap { day in day["sources"]?.object?.values.compactMap { $0["repeatsFree"]?.idText.flatMap(Int.init) } }
            .joined().reduce(0, +)
        #expect(repeats == bill.total.deduplicated, "repeatsFree \(repeats) vs the emulator's \(bill.total.deduplicated)")

        let status = try Binary.run(["status", "--json", "--config", world.configPath])
        let report = try JSONValue.parse(status.stdout.trimmingCharacters(in: .newlines))
        #expect(report["billing"]?["state"] == .string("ok"))
        #expect(try MicroUSD(parsingJSON: report["billing"]?["cycleSpentUSD"]?.double as Any) == ours)

        // /metrics reads the same ledger at scrape time.
        let config = try world.config
        let collected = try await StatusReport.collect(config: config, statusPath: StatusSnapshot.readerPath(config: config))
        let metrics = try PrometheusText(parsing: String(decoding: TwfeedMetrics().exposition(
            stored: .init(report: collected, up: false)), as: UTF8.self))
        let bySource = BillingSource.allCases.compactMap { metrics.value("twfeed_api_spend_usd_total", ["source": $0.rawValue]) }
        #expect(bySource.count == BillingSource.allCases.count)
        #expect(abs(bySource.reduce(0, +) - ours.usd) < 1e-9)
        #expect(metrics.value("twfeed_api_resources_total", ["kind": "post_create_url"]) == 1)
        #expect(metrics.value("twfeed_api_cycle_spend_usd").map { abs($0 - ours.usd) < 1e-9 } == true)
        #expect(metrics.value("twfeed_api_budget_usd") == nil, "no budget, no gauge")
    }
}
