import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The API's two date spellings, formatted and parsed by hand with `gmtime_r`/`timegm`
/// rather than a shared `DateFormatter`: this runs for every log line and every served
/// tweet, and the C calls are thread-safe, fast, and cannot pick up the machine's locale.
/// Both twfeed and its emulator use it, so client and server agree on every byte.
public enum Timestamp {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// v2 and the log's spelling: `2026-11-21T10:00:00.123Z`.
    public static func iso8601Milliseconds(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        // Floor division: before 1970 the second is the one below, not the one toward zero.
        var (seconds, millis) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        if millis < 0 {
            seconds -= 1
            millis += 1000
        }
        let parts = brokenDown(time_t(seconds))
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }

    /// Without milliseconds, for JSON output: `2026-11-21T10:00:00Z`.
    public static func iso8601(_ date: Date) -> String {
        let full = iso8601Milliseconds(date)
        return String(full.prefix(19)) + "Z"
    }

    /// `iso8601(date)`'s bytes appended to `out` without making a String: a full
    /// `feed --json` dump writes one per tweet.
    public static func appendISO8601(_ date: Date, to out: inout [UInt8]) {
        let seconds = (date.timeIntervalSince1970).rounded(.down)
        // Within the years 0-9999 (what four digits spell); beyond, the String path.
        guard seconds > -62_167_219_200, seconds < 253_402_300_800 else {
            out.append(contentsOf: iso8601(date).utf8)
            return
        }
        let parts = brokenDown(time_t(seconds))
        func digits(_ value: Int32, _ width: Int) {
            var divisor: Int32 = 1
            for _ in 1..<width { divisor *= 10 }
            var value = value
            while divisor > 0 {
                out.append(UInt8(48 + value / divisor))
                value %= divisor
                divisor /= 10
            }
        }
        digits(parts.tm_year + 1900, 4)
        out.append(UInt8(ascii: "-"))
        digits(parts.tm_mon + 1, 2)
        out.append(UInt8(ascii: "-"))
        digits(parts.tm_mday, 2)
        out.append(UInt8(ascii: "T"))
        digits(parts.tm_hour, 2)
        out.append(UInt8(ascii: ":"))
        digits(parts.tm_min, 2)
        out.append(UInt8(ascii: ":"))
        digits(parts.tm_sec, 2)
        out.append(UInt8(ascii: "Z"))
    }

    /// v1.1's spelling: `Wed Oct 10 20:19:24 +0000 2018`.
    public static func twitterDate(_ date: Date) -> String {
        let p = brokenDown(time_t(date.timeIntervalSince1970.rounded(.down)))
        return "\(weekdays[Int(p.tm_wday)]) \(months[Int(p.tm_mon)]) \(pad(p.tm_mday, 2)) "
            + "\(pad(p.tm_hour, 2)):\(pad(p.tm_min, 2)):\(pad(p.tm_sec, 2)) +0000 \(pad(p.tm_year + 1900, 4))"
    }

    /// Parses `2026-11-21T10:00:00Z` or `2026-11-21T10:00:00.000Z` (any number of fraction
    /// digits). Strict: separators, field ranges and the final `Z` are checked, so the
    /// emulator can refuse a malformed `start_time` as the real API does.
    public static func parseISO8601(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for index in range {
                guard index < bytes.count, (48...57).contains(bytes[index]) else { return nil }
                value = value * 10 + Int32(bytes[index] - 48)
            }
            return value
        }
        func separator(_ index: Int, _ ascii: Unicode.Scalar) -> Bool { bytes[index] == UInt8(ascii: ascii) }
        guard let year = number(0..<4), separator(4, "-"), let month = number(5..<7), separator(7, "-"),
            let day = number(8..<10), separator(10, "T"), let hour = number(11..<13), separator(13, ":"),
            let minute = number(14..<16), separator(16, ":"), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if separator(19, ".") {
            index = 20
            var scale = 0.1
            while index < bytes.count, (48...57).contains(bytes[index]) {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        guard index == bytes.count - 1, separator(index, "Z") else { return nil }
        return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction)
    }

    /// Parses v1.1's `Wed Oct 10 20:19:24 +0000 2018`.
    public static func parseTwitterDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6 else { return nil }
        guard let monthIndex = months.firstIndex(of: String(parts[1])), let day = Int32(parts[2]),
            let year = Int32(parts[5])
        else { return nil }
        let clock = parts[3].split(separator: ":")
        guard clock.count == 3, let hour = Int32(clock[0]), let minute = Int32(clock[1]), let second = Int32(clock[2]) else {
            return nil
        }
        let offset = String(parts[4])
        guard offset.count == 5, let hours = Int(offset.dropFirst().prefix(2)), let minutes = Int(offset.suffix(2)) else {
            return nil
        }
        let sign: Double = offset.hasPrefix("-") ? -1 : 1
        guard let utc = date(year: year, month: Int32(monthIndex + 1), day: day, hour: hour, minute: minute, second: second, fraction: 0) else {
            return nil
        }
        return utc.addingTimeInterval(-sign * Double(hours * 3600 + minutes * 60))
    }

    private static func brokenDown(_ seconds: time_t) -> tm {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return parts
    }

    private static func pad(_ value: Int32, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func date(year: Int32, month: Int32, day: Int32, hour: Int32, minute: Int32, second: Int32, fraction: Double) -> Date? {
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        let seconds = timegm(&parts)
        guard seconds != -1 else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
