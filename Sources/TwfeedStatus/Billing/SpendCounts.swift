import Foundation
import TwfeedBase
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
    /// Everything spent, per source.
    @ByName package var bySourceMicros: [BillingSource: Int64]
    /// Every resource charged, per kind.
    @ByName package var byKindResources: [BillableKind: Int]
    /// The account's billing state (`BillingState` raw value) and its times; absent in
    /// a snapshot written before twfeed knew refusals (read as `ok`).
    package var state: String?
    package var since: Date?
    package var until: Date?
    package var detail: String?
    /// The endpoints the API refuses.
    @ByName package var refusals: [BillingSource: Refusal]
    /// Recorded gaps per feed.
    @ByName package var gaps: [Feed: Int]
    /// True when the API is the emulator (`api.billsRealMoney` false): the amounts are
    /// play money and say so. Absent in older snapshots (real).
    package var emulated: Bool?

    /// A refused endpoint as `status` shows it.
    package struct Refusal: Codable, Sendable, Equatable {
        package var reason: String
        package var detail: String
        package var since: Date
    }

    /// The billing state; `ok` when unknown.
    package var billingState: BillingState { state.flatMap(BillingState.init(rawValue:)) ?? .ok }

    /// The refusal of a feed's endpoint, nil when it is permitted.
    package func refusal(of feed: Feed) -> Refusal? { refusals[BillingSource(feed)] }

    package var today: MicroUSD { MicroUSD(micros: todayMicros) }
    package var cycle: MicroUSD { MicroUSD(micros: cycleMicros) }
    package var budget: MicroUSD? { budgetMicros.map(MicroUSD.init(micros:)) }

    /// " (the emulator's money, not real)" after the amounts of an emulated API; else "".
    package var moneyNote: String { emulated == true ? " (\(TwfeedConfig.API.playMoneyNote))" : "" }

    package static func read(config: TwfeedConfig, database: some StoreReading, now: Date) async throws -> SpendCounts {
        SpendCounts(config: config, stored: try await database.storedCounts(request(config: config, now: now, feeds: false)), now: now)
    }

    /// What the store is asked for the counts at `now`: today's and the cycle's days.
    package static func request(config: TwfeedConfig, now: Date, feeds: Bool) -> StoredCounts.Request {
        let interval = config.api.budget.cycle.cycle(containing: now)
        let today = CivilDate(now)
        return StoredCounts.Request(
            now: now,
            feeds: feeds,
            today: (today.description, today.adding(days: 1).description),
            cycle: (BillingCycle.utcDay(of: interval.start), BillingCycle.utcDay(of: interval.end))
        )
    }

    /// `status --json`'s and `usage --json`'s `"billing"`.
    package var billingJSON: JSONValue {
        func time(_ date: Date?) -> JSONValue { date.map { .string(Timestamp.iso8601($0)) } ?? .null }
        return .object([
            "state": .string(billingState.rawValue),
            "since": time(since),
            "until": time(until),
            "detail": detail.map { .string($0) } ?? .null,
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

extension SpendCounts {
    /// The counts from what the store read (`StoredCounts`, asked with `request`).
    package init(config: TwfeedConfig, stored: StoredCounts, now: Date) {
        let days = Self.request(config: config, now: now, feeds: false)
        var bySource: [BillingSource: Int64] = [:]
        var byKind: [BillableKind: Int] = [:]
        for source in BillingSource.allCases { bySource[source] = 0 }
        for kind in BillableKind.allCases { byKind[kind] = 0 }
        for row in stored.spendTotals {
            bySource[row.source, default: 0] += row.cost.micros
            byKind[row.kind, default: 0] += row.resources
        }
        let status = stored.billingStatus
        var refusals: [BillingSource: Refusal] = [:]
        for refusal in stored.endpointRefusals {
            refusals[refusal.source] = Refusal(reason: refusal.reason.rawValue, detail: refusal.detail, since: refusal.since)
        }
        self.init(
            todayMicros: stored.spentToday.micros,
            cycleMicros: stored.spentCycle.micros,
            cycleStart: days.cycle.from,
            cycleEnd: days.cycle.before,
            budgetMicros: config.api.budget.monthlyUSD?.micros,
            bySourceMicros: bySource,
            byKindResources: byKind,
            state: status?.state.rawValue,
            since: status?.since,
            until: status?.until,
            detail: status?.detail,
            refusals: refusals,
            gaps: stored.gapCounts,
            emulated: config.api.billsRealMoney ? nil : true
        )
    }
}
