import Foundation

/// UTC calendar days and billing cycles, counted in days since 1970-01-01 on the
/// emulator's clock (skew included): the pay-per-use API deduplicates per UTC calendar
/// day and bills per monthly cycle starting on a day of the month at 00:00 UTC.
/// Integer arithmetic (Howard Hinnant's civil-date algorithms), so a request needs no
/// calendar object and a skewed clock gives the same days everywhere.
enum BillingCalendar {
    /// The UTC day `date` falls in.
    static func day(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// `2026-11-25`.
    static func label(_ day: Int) -> String {
        let (year, month, dayOfMonth) = civil(day)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        let yearText = year < 0 ? "-" + String(-year) : String(year)
        return "\(String(repeating: "0", count: max(0, 4 - yearText.count)))\(yearText)-\(two(month))-\(two(dayOfMonth))"
    }

    /// The cycle holding `day` when cycles start on `startDay` (1-28) of each month:
    /// its first day and the first day of the next one.
    static func cycle(containing day: Int, startDay: Int) -> (start: Int, end: Int) {
        let (year, month, dayOfMonth) = civil(day)
        let (startYear, startMonth) = dayOfMonth >= startDay ? (year, month) : previous(year, month)
        let (endYear, endMonth) = next(startYear, startMonth)
        return (days(startYear, startMonth, startDay), days(endYear, endMonth, startDay))
    }

    private static func previous(_ year: Int, _ month: Int) -> (Int, Int) {
        month == 1 ? (year - 1, 12) : (year, month - 1)
    }

    private static func next(_ year: Int, _ month: Int) -> (Int, Int) {
        month == 12 ? (year + 1, 1) : (year, month + 1)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day since 1970-01-01.
    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
