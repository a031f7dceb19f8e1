import Foundation

/// The monthly billing cycle, which starts at 00:00 UTC on `api.budget.cycleStartDay`.
///
/// X's cycle need not start on the 1st, and the monthly budget, the post-read cap and the
/// spend cap all reset with it, so twfeed must be able to say where the current cycle
/// began and ends. Start days stop at 28 so that every month has one: a cycle "on the
/// 31st" would need a rule for February that X does not publish.
package struct BillingCycle: Hashable, Sendable {
    /// Day of the month the cycle starts on, 1-28.
    package let startDay: Int

    /// A start day outside 1-28, as the config loader reports it.
    package struct InvalidStartDay: Error, Equatable, Sendable, CustomStringConvertible {
        package let day: Int

        package init(day: Int) {
            self.day = day
        }

        package var description: String {
            "must be a day of the month from 1 to 28 (every month has it), not \(day)"
        }
    }

    package init(startDay: Int) throws(InvalidStartDay) {
        guard (1...28).contains(startDay) else { throw InvalidStartDay(day: startDay) }
        self.startDay = startDay
    }

    /// The cycle `date` falls in: from 00:00 UTC on the start day to 00:00 UTC on the next
    /// one. The end instant belongs to the next cycle (though `DateInterval.contains`
    /// says true for it).
    package func cycle(containing date: Date) -> DateInterval {
        let (start, end) = bounds(of: CivilDate(date))
        return DateInterval(start: start.start, end: end.start)
    }

    /// The UTC day of `date` as `YYYY-MM-DD`: the ledger's key, since the API bills a post
    /// returned twice in one UTC day once.
    package static func utcDay(of date: Date) -> String {
        CivilDate(date).description
    }

    /// 00:00 UTC on the day of `date`.
    package static func startOfUTCDay(_ date: Date) -> Date {
        CivilDate(date).start
    }

    /// 00:00 UTC on the day after `date`: when a day's allowance and dedup start over.
    package static func endOfUTCDay(_ date: Date) -> Date {
        CivilDate(date).adding(days: 1).start
    }

    /// UTC days from the day of `date` to the cycle's end, counting that day: 1 on the
    /// cycle's last day, so a daily allowance divides by at least 1.
    package func daysLeft(includingDayOf date: Date) -> Int {
        let today = CivilDate(date)
        return bounds(of: today).end.daysSinceEpoch - today.daysSinceEpoch
    }

    /// Days in the cycle `date` falls in (28 to 31).
    package func days(inCycleContaining date: Date) -> Int {
        let (start, end) = bounds(of: CivilDate(date))
        return end.daysSinceEpoch - start.daysSinceEpoch
    }

    /// First day of the cycle holding `day`, and first day of the next one.
    private func bounds(of day: CivilDate) -> (start: CivilDate, end: CivilDate) {
        // startDay <= 28 exists in every month, so these never fail.
        let thisMonth = CivilDate(year: day.year, month: day.month, day: startDay)!
        let start = day.day >= startDay ? thisMonth : thisMonth.adding(months: -1)!
        return (start, start.adding(months: 1)!)
    }
}
