import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The two date spellings of the API, formatted with `gmtime_r` rather than a shared
/// `DateFormatter`: it is thread-safe, fast, and cannot pick up the machine's locale.
enum TimeFormat {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func brokenDown(_ date: Date) -> tm {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return parts
    }

    private static func pad(_ value: Int32, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// v2: `2026-11-21T10:00:00.000Z`.
    static func iso8601(_ date: Date) -> String {
        let p = brokenDown(date)
        let millis = Int32((date.timeIntervalSince1970 - date.timeIntervalSince1970.rounded(.down)) * 1000)
        return "\(pad(p.tm_year + 1900, 4))-\(pad(p.tm_mon + 1, 2))-\(pad(p.tm_mday, 2))T"
            + "\(pad(p.tm_hour, 2)):\(pad(p.tm_min, 2)):\(pad(p.tm_sec, 2)).\(pad(millis, 3))Z"
    }

    /// v1.1: `Wed Oct 10 20:19:24 +0000 2018`.
    static func legacy(_ date: Date) -> String {
        let p = brokenDown(date)
        return "\(weekdays[Int(p.tm_wday)]) \(months[Int(p.tm_mon)]) \(pad(p.tm_mday, 2)) "
            + "\(pad(p.tm_hour, 2)):\(pad(p.tm_min, 2)):\(pad(p.tm_sec, 2)) +0000 \(pad(p.tm_year + 1900, 4))"
    }

    /// Parses v2's `start_time`/`end_time`: `YYYY-MM-DDTHH:mm:ssZ`, optionally with fractional seconds.
    static func parseISO8601(_ text: String) -> Date? {
        let chars = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int32? {
            guard from + count <= chars.count else { return nil }
            var value: Int32 = 0
            for c in chars[from..<(from + count)] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int32(c - 48)
            }
            return value
        }
        guard chars.count >= 20,
              let year = number(0, 4), chars[4] == UInt8(ascii: "-"),
              let month = number(5, 2), chars[7] == UInt8(ascii: "-"),
              let day = number(8, 2), chars[10] == UInt8(ascii: "T"),
              let hour = number(11, 2), chars[13] == UInt8(ascii: ":"),
              let minute = number(14, 2), chars[16] == UInt8(ascii: ":"),
              let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if chars[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < chars.count, chars[index] >= 48, chars[index] <= 57 {
                fraction += Double(chars[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        guard index == chars.count - 1, chars[index] == UInt8(ascii: "Z") else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Date(timeIntervalSince1970: Double(timegm(&parts)) + fraction)
    }
}
