import Foundation
import TwfeedBilling
import TwfeedCore
import TwfeedStore

/// What the ledger says at a glance, for `status`, the snapshot and `/metrics`: today's
/// and the cycle's spend, the budget, and the all-time totals per source and kind. Read
/// from the store's ledger in O(days × sources × kinds), never O(tweets).
package struct SpendCounts: Codable, Sendable, Equatable {
    package var todayMicros: Int64
    package var cycleMicros: Int64
    /// The cycle's first day and the next cycle's first day (`YYYY-MM-DD`, UTC).
    package var cycleStart: String
    package var cycleEnd: String
    /// `api.budget.monthlyUSD`; nil without a budget.
    package var budgetMicros: Int64?
    /// Everything spent, per `BillingSource` raw value.
    package var bySourceMicros: [String: Int64]
    /// Every resource charged, per `BillableKind` raw value.
    package var byKindResources: [String: Int]

    package var today: MicroUSD { MicroUSD(micros: todayMicros) }
    package var cycle: MicroUSD { MicroUSD(micros: cycleMicros) }
    package var budget: MicroUSD? { budgetMicros.map(MicroUSD.init(micros:)) }

    package static func read(config: TwfeedConfig, database: some StoreReading, now: Date) throws -> SpendCounts {
        let interval = config.api.budget.cycle.cycle(containing: now)
        let today = CivilDate(now)
        let cycleStart = BillingCycle.utcDay(of: interval.start)
        let cycleEnd = BillingCycle.utcDay(of: interval.end)
        var bySource: [String: Int64] = [:]
        var byKind: [String: Int] = [:]
        for source in BillingSource.allCases { bySource[source.rawValue] = 0 }
        for kind in BillableKind.allCases { byKind[kind.rawValue] = 0 }
        for row in try database.spendTotals() {
            bySource[row.source.rawValue, default: 0] += row.cost.micros
            byKind[row.kind.rawValue, default: 0] += row.resources
        }
        return SpendCounts(
            todayMicros: try database.spent(from: today.description, before: today.adding(days: 1).description).micros,
            cycleMicros: try database.spent(from: cycleStart, before: cycleEnd).micros,
            cycleStart: cycleStart,
            cycleEnd: cycleEnd,
            budgetMicros: config.api.budget.monthlyUSD?.micros,
            bySourceMicros: bySource,
            byKindResources: byKind
        )
    }

    /// `status --json`'s and `usage --json`'s `"billing"`. The state is `ok` until the
    /// daemon learns the API's refusals; `since`, `until` and `detail` belong to those.
    package var billingJSON: JSONValue {
        .object([
            "state": .string(BillingState.ok.rawValue),
            "since": .null,
            "until": .null,
            "detail": .null,
            "todayUSD": Self.usd(today),
            "cycleSpentUSD": Self.usd(cycle),
            "budgetUSD": budget.map(Self.usd) ?? .null,
        ])
    }

    /// A JSON number of dollars written from the integer (`0.215`, never `0.21500000001`).
    package static func usd(_ amount: MicroUSD) -> JSONValue {
        .number(amount.decimalString)
    }
}
