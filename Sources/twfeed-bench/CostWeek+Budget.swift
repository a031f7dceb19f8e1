import Foundation
import TwfeedBilling
import TwfeedCore
import TwfeedEmulator
import TwfeedKit
import TwfeedSandbox
import TwfeedStore

extension CostWeek {
    /// `api.budget.monthlyUSD` for a run, and the checks that it held.
    ///
    /// The budget's cycle starts on the first measured day (`cycleStartDay`), so the
    /// measured days are the cycle's first ones and the warm-up's first backfill is paid
    /// in the cycle before. "The bill never passes the budget" is checked on the
    /// emulator's bill, the API's side, as strongly as a part of a cycle allows:
    /// - each UTC day's bill is at most that day's allowance, worked out from the bill of
    ///   the days before it as `BudgetPlan` does ((budget − spent before) ÷ days left);
    /// - the bill to the end of each day is at most the budget's pro-rated share
    ///   (budget × days elapsed ÷ days in the cycle): what the daily allowances add up to
    ///   at most, so the cycle's money is never spent ahead of its days;
    /// - the cycle's bill (the emulator's own count) is at most the budget.
    ///
    /// And nothing is skipped in silence: every mention the emulator has is stored, and
    /// every home post of the measured days is stored or lies inside a recorded gap.
    struct Budget {
        let monthly: MicroUSD
        let startDay: Int
        let cycle: BillingCycle

        init(monthly: MicroUSD, firstDay: Date) {
            self.monthly = monthly
            // The simulation starts on 2026-11-18, so the first measured day is the 20th.
            startDay = CivilDate(firstDay).day
            cycle = try! BillingCycle(startDay: startDay)
        }

        var config: [String: JSONValue] {
            [
                "api": .object([
                    "budget": .object([
                        "monthlyUSD": .number(monthly.decimalString), "cycleStartDay": .number(String(startDay)),
                    ])
                ])
            ]
        }

        /// Checks the bill against the budget, day by day, and that nothing was skipped
        /// in silence; returns the figures for the table.
        func check(_ simulation: CostSimulation, homeAbove: UInt64, targets: inout CostTargets) async throws -> String {
            let bill = simulation.emulator.bill()
            var spentBefore = MicroUSD.zero
            var worstDay: (share: Double, day: String) = (0, "-")
            var tightest: (share: Double, day: String) = (0, "-")
            var overAllowance: [String] = []
            var overShare: [String] = []
            for day in bill.days.reversed() {
                guard let date = CivilDate(iso: day.day[...])?.start else { continue }
                let plan = BudgetPlan(monthlyBudget: monthly, cycle: cycle, spentBeforeToday: spentBefore, spentToday: .zero, now: date)
                let spent = MicroUSD(micros: Int64(day.tally.micros))
                let allowance = plan.allowanceToday ?? .zero
                if spent > allowance { overAllowance.append("\(day.day) \(spent.formatted) > \(allowance.formatted)") }
                let dayShare = Double(spent.micros) / Double(max(allowance.micros, 1))
                if dayShare > worstDay.share { worstDay = (dayShare, day.day) }
                spentBefore += spent
                let days = cycle.days(inCycleContaining: date)
                let elapsed = days - cycle.daysLeft(includingDayOf: date) + 1
                let share = MicroUSD(micros: monthly.micros * Int64(elapsed) / Int64(days))
                if spentBefore > share { overShare.append("to \(day.day) \(spentBefore.formatted) > \(share.formatted)") }
                let cumulative = Double(spentBefore.micros) / Double(max(share.micros, 1))
                if cumulative > tightest.share { tightest = (cumulative, day.day) }
            }
            targets.check(
                "each UTC day's bill within its allowance",
                overAllowance.isEmpty,
                overAllowance.isEmpty
                    ? "\(bill.days.count) days; the fullest, \(worstDay.day), spent \(percent(worstDay.share)) of its allowance"
                    : overAllowance.joined(separator: "; ")
            )
            targets.check(
                "the bill to each day's end within the budget's pro-rated share",
                overShare.isEmpty,
                overShare.isEmpty
                    ? "at most \(percent(tightest.share)) of it (to the end of \(tightest.day)); \(spentBefore.formatted) in all"
                    : overShare.joined(separator: "; ")
            )
            let cycleBill = MicroUSD(micros: Int64(bill.cycleMicros))
            targets.check(
                "the cycle's bill within the budget",
                cycleBill <= monthly,
                "\(cycleBill.formatted) of \(monthly.formatted) (cycle \(bill.cycleStart) to \(bill.nextCycleStart))"
            )

            let mentions = simulation.emulator.allTweetIDs(.mentions)
            let storedMentions = try await simulation.stored(.mentions)
            let missingMentions = mentions.filter { !storedMentions.contains($0) }
            targets.check(
                "mentions complete",
                missingMentions.isEmpty,
                "\(mentions.count - missingMentions.count) of the emulator's \(mentions.count) stored"
            )

            let home = simulation.emulator.allTweetIDs(.home).compactMap { UInt64($0) }.filter { $0 > homeAbove }
            let storedHome = try await simulation.stored(.home)
            let gaps = try await simulation.database.gaps(.home)
            var inGaps = 0
            var silent: [UInt64] = []
            for id in home where !storedHome.contains(String(id)) {
                let inside = gaps.contains { gap in
                    UInt64(gap.newerThanID.rawValue) < id && id < UInt64(gap.olderThanID.rawValue)
                }
                if inside { inGaps += 1 } else { silent.append(id) }
            }
            targets.check(
                "every skipped home post in a recorded gap",
                silent.isEmpty,
                "\(home.count) new home posts: \(home.count - inGaps - silent.count) stored, \(inGaps) in \(gaps.count) gaps"
                    + (silent.isEmpty ? "" : ", \(silent.count) in none (e.g. \(silent.prefix(3).map(String.init).joined(separator: ", ")))")
            )
            // Not a target: the retweets feed is served last, after home, and may wait.
            let dialect: EmulatorDialect = simulation.sandbox.dialect == "v2" ? .v2 : .v1_1
            let retweets = simulation.emulator.expectedMembers(.retweets, dialect: dialect)
            let storedRetweets = try await simulation.stored(.retweets).intersection(retweets).count
            print("  retweets (served last, not a target): \(storedRetweets) of \(retweets.count) stored")
            let days = cycle.days(inCycleContaining: CostSimulation.firstMidnight)
            return
                "budget \(monthly.formatted) a \(days)-day cycle; \(spentBefore.formatted) spent, \(percent(tightest.share)) of the pro-rated share; "
                + "fullest day \(percent(worstDay.share)) of its allowance; home \(home.count - inGaps) of \(home.count) read, \(inGaps) in \(gaps.count) gaps; "
                + "mentions \(storedMentions.intersection(mentions).count)/\(mentions.count); retweets \(storedRetweets)/\(retweets.count)"
        }
    }
}
