import Foundation

/// A calendar date in UTC, with the day arithmetic the billing cycle needs.
///
/// Billing days and cycles are UTC calendar days, whatever the machine's time zone. The
/// conversions are Howard Hinnant's `days_from_civil` / `civil_from_days` on the proleptic
/// Gregorian calendar: plain integer arithmetic, so a cycle boundary never depends on a
/// `Calendar`'s time zone or locale settings.
package struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let year: Int
    /// 1-12.
    package let month: Int
    /// 1-31.
    package let day: Int

    private static let secondsPerDay = 86_400

    /// nil unless `day` exists in that month (leap years included).
    package init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The UTC day `date` falls on.
    package init(_ date: Date) {
        self.init(daysSinceEpoch: Self.floorDiv(Self.wholeSeconds(date), Self.secondsPerDay))
    }

    /// Reads exactly `YYYY-MM-DD`, as the API writes `reset_date`.
    package init?(iso text: Substring) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`, the key of a day in the ledger and in `usage --json`.
    package var description: String {
        let y = String(year)
        let m = String(month)
        let d = String(day)
        return String(repeating: "0", count: Swift.max(0, 4 - y.count)) + y
            + "-" + (m.count < 2 ? "0" : "") + m
            + "-" + (d.count < 2 ? "0" : "") + d
    }

    /// 00:00:00 UTC on this day.
    package var start: Date {
        Date(timeIntervalSince1970: TimeInterval(daysSinceEpoch * Self.secondsPerDay))
    }

    /// The day `count` days later (earlier when negative).
    package func adding(days count: Int) -> CivilDate {
        CivilDate(daysSinceEpoch: daysSinceEpoch + count)
    }

    /// The same day of the month `count` months later; nil when that month is too short.
    package func adding(months count: Int) -> CivilDate? {
        let index = year * 12 + (month - 1) + count
        return CivilDate(year: Self.floorDiv(index, 12), month: index - Self.floorDiv(index, 12) * 12 + 1, day: day)
    }

    package static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Days from 1970-01-01 (negative before it).
    package var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = Self.floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = Self.floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.month = month
        day = dayOfYear - (153 * mp + 2) / 5 + 1
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Whole seconds since the epoch, rounded down, clamped far inside `Int`'s range so a
    /// hostile `Date` (infinite, NaN) cannot trap the conversion.
    private static func wholeSeconds(_ date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return 0 }
        // ±10^15 s is ±31 million years: further than any date twfeed meets.
        return Int(Swift.min(Swift.max(seconds, -1e15), 1e15).rounded(.down))
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
