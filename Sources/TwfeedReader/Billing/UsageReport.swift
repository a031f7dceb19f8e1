import Foundation
import TwfeedBilling
import TwfeedCore
import TwfeedStatus
import TwfeedStore

/// The answer to `twfeed usage`: the cycle (spent, projected, budget, left), the billing
/// state, and the last days' spend per source, newest day first. Read from the ledger's
/// rows of those days (O(days × sources × kinds)).
package struct UsageReport: Sendable {
    package struct Day: Sendable, Equatable {
        /// `YYYY-MM-DD`, UTC.
        package var day: String
        package var sources: [BillingSource: ResourceCount]
        package var costs: [BillingSource: MicroUSD]
        /// Resources each source got back that were already charged that day, so free
        /// (the API charges a post or user once a UTC day, whoever reads it again).
        package var repeats: [BillingSource: Int] = [:]
        package var total: MicroUSD { costs.values.reduce(.zero, +) }
    }

    package var spend: SpendCounts
    package var plan: BudgetPlan
    package var days: [Day]

    /// - Parameter days: how many UTC days to list, today included (at least 1).
    package static func read(config: TwfeedConfig, database: some StoreReading, now: Date, days: Int) async throws -> UsageReport {
        let spend = try await SpendCounts.read(config: config, database: database, now: now)
        let plan = BudgetPlan(
            monthlyBudget: config.api.budget.monthlyUSD,
            cycle: config.api.budget.cycle,
            spentBeforeToday: spend.cycle - spend.today,
            spentToday: spend.today,
            now: now
        )
        let today = CivilDate(now)
        let count = max(1, days)
        let first = today.adding(days: -(count - 1))
        var byDay: [String: Day] = [:]
        for offset in 0..<count {
            let label = first.adding(days: offset).description
            byDay[label] = Day(day: label, sources: [:], costs: [:])
        }
        for row in try await database.spend(since: first.description) {
            guard byDay[row.day] != nil else { continue }  // a day after today: a clock that went back
            byDay[row.day]?.sources[row.source, default: .zero][row.kind] += row.resources
            byDay[row.day]?.costs[row.source, default: .zero] += row.cost
            byDay[row.day]?.repeats[row.source, default: 0] += row.repeats
        }
        return UsageReport(spend: spend, plan: plan, days: byDay.values.sorted { $0.day > $1.day })
    }

    /// INTERFACE.md's `usage --json` object.
    package var json: JSONValue {
        let usd = SpendCounts.usd
        let cycle: JSONValue = .object([
            "start": .string(spend.cycleStart),
            "end": .string(spend.cycleEnd),
            "spentUSD": usd(plan.spentInCycle),
            "projectedUSD": usd(plan.projectedCycleSpend),
            "budgetUSD": plan.budget.map(usd) ?? .null,
            "leftUSD": plan.leftInCycle.map(usd) ?? .null,
        ])
        let dayObjects: [JSONValue] = days.map { day in
            var sources: [String: JSONValue] = [:]
            for source in BillingSource.allCases {
                let count = day.sources[source] ?? .zero
                sources[source.rawValue] = .object([
                    "postReads": .number(String(count.postReads)),
                    "ownedReads": .number(String(count.ownedReads)),
                    "userReads": .number(String(count.userReads)),
                    "posts": .number(String(count.posts)),
                    "postsWithURL": .number(String(count.postsWithURL)),
                    "postsSummoned": .number(String(count.postsSummoned)),
                    "postsDeleted": .number(String(count.postsDeleted)),
                    "uploads": .number(String(count.uploads)),
                    "repeatsFree": .number(String(day.repeats[source] ?? 0)),
                    "usd": usd(day.costs[source] ?? .zero),
                ])
            }
            return .object(["day": .string(day.day), "spentUSD": usd(day.total), "sources": .object(sources)])
        }
        return .object(["cycle": cycle, "billing": spend.billingJSON, "days": .array(dayObjects)])
    }

    /// The human form: the cycle in a line or two, then a row per day and source that
    /// spent anything or got anything free (`free`: resources already charged that day).
    /// Every amount has the same decimals: as many as the most exact recorded amount
    /// needs (at least 3, as the published rates read; more only for finer `api.prices`),
    /// the estimates (projected, allowed today) rounded to them, where the plain rule
    /// would show a read's $0.005 beside an allowance's $0.322580.
    package var table: String {
        let decimals = max(3, exactAmounts.map(\.significantDecimals).max() ?? 0)
        func money(_ amount: MicroUSD) -> String { amount.formatted(decimals: decimals) }
        func estimate(_ amount: MicroUSD, _ rule: FloatingPointRoundingRule) -> String {
            amount.formatted(decimals: decimals, rounding: rule)
        }
        var lines: [String] = []
        var cycle =
            "cycle     \(spend.cycleStart) to \(spend.cycleEnd): \(money(plan.spentInCycle)) spent, "
            + "\(estimate(plan.projectedCycleSpend, .toNearestOrAwayFromZero)) projected"
        if let budget = plan.budget, let left = plan.leftInCycle {
            cycle += ", budget \(money(budget)), \(money(left)) left"
        }
        lines.append(cycle + spend.moneyNote)
        // An allowance rounded down: never more than the budget allows.
        lines.append("today     \(money(spend.today))" + (plan.leftToday.map { " (\(estimate($0, .down)) more allowed today)" } ?? ""))
        lines.append("")
        let costWidth = max(11, days.flatMap { $0.costs.values }.map { money($0).count + 2 }.max() ?? 0)
        lines.append(
            Self.pad("day", 12) + Self.pad("source", 11) + Self.pad("posts read", 11, right: true)
                + Self.pad("owned", 7, right: true) + Self.pad("users", 7, right: true) + Self.pad("posted", 8, right: true)
                + Self.pad("free", 7, right: true) + Self.pad("cost", costWidth, right: true)
        )
        for day in days {
            let spent = BillingSource.allCases.filter { !(day.sources[$0] ?? .zero).isEmpty || (day.repeats[$0] ?? 0) > 0 }
            if spent.isEmpty {
                lines.append(Self.pad(day.day, 12) + Self.pad("-", 11) + Self.pad(money(.zero), 40 + costWidth, right: true))
                continue
            }
            for source in spent {
                let count = day.sources[source] ?? .zero
                lines.append(
                    Self.pad(day.day, 12) + Self.pad(source.rawValue, 11)
                        + Self.pad(String(count.postReads), 11, right: true) + Self.pad(String(count.ownedReads), 7, right: true)
                        + Self.pad(String(count.userReads), 7, right: true)
                        + Self.pad(String(count.posts + count.postsWithURL + count.postsSummoned), 8, right: true)
                        + Self.pad(String(day.repeats[source] ?? 0), 7, right: true)
                        + Self.pad(money(day.costs[source] ?? .zero), costWidth, right: true)
                )
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The amounts `table` shows exactly: what was spent, the budget and what it leaves.
    private var exactAmounts: [MicroUSD] {
        [plan.spentInCycle, spend.today] + [plan.budget, plan.leftInCycle].compactMap { $0 } + days.flatMap { $0.costs.values }
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
