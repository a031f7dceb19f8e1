import Foundation

/// `--at TIME`: when a queued status may go out at the earliest.
///
/// The time is ISO 8601 with its offset (`2026-12-01T09:00:00+01:00`, `…Z`): a time
/// without one would be read in the machine's zone, which a daemon on a server may not
/// share with the person typing, so it is refused rather than guessed. Accepted:
/// `YYYY-MM-DDTHH:MM[:SS[.fraction]]` then `Z`, `±HH:MM` or `±HHMM` (`T`, `Z` in
/// either case, as RFC 3339 allows). A malformed value is a usage error (64), like any
/// option whose value cannot be read (`--before abc`); a well-formed time the outbox
/// would expire at once is invalid data (65).
package enum SendTime {
    package static let example = "2026-12-01T09:00:00+01:00"

    /// The instant `text` names, or `.usage` (64) saying what is wrong.
    package static func parse(_ text: String) throws -> Date {
        guard let date = instant(text) else {
            throw TwfeedError(.usage, "--at: \"\(text)\" is not an ISO 8601 time with an offset (e.g. \(example))")
        }
        return date
    }

    /// Refuses (65) a time so far in the past that the expiry (`outbox.maxAgeHours`,
    /// which counts from `--at`) would drop the status before its first attempt. A
    /// time in the past within the expiry is fine: the status goes out at once. With
    /// `maxAgeHours` 0 (no expiry) every time is accepted.
    package static func check(_ date: Date, text: String, now: Date, maxAgeHours: Double) throws {
        let age = now.timeIntervalSince(date)
        guard maxAgeHours > 0, age > maxAgeHours * 3600 else { return }
        throw TwfeedError(
            .invalidData,
            "--at \(text): \(String(format: "%.1f", age / 3600)) h ago, beyond outbox.maxAgeHours (\(String(format: "%.1f", maxAgeHours))): it would expire unsent"
        )
    }

    private static func instant(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ options: String) -> Bool {
            guard index < bytes.count, options.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2), expect("Tt"),
            let hour = digits(2), expect(":"), let minute = digits(2)
        else { return nil }
        var second = 0
        var fraction = 0.0
        if expect(":") {
            guard let whole = digits(2) else { return nil }
            second = whole
            if expect(".,") {
                var scale = 0.1
                let start = index
                while index < bytes.count, (48...57).contains(bytes[index]) {
                    fraction += Double(bytes[index] - 48) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { return nil }
            }
        }
        var offset = 0
        if expect("Zz") {
            offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = digits(2) else { return nil }
            _ = expect(":")
            guard let minutes = digits(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count, (1...12).contains(month), hour < 24, minute < 60, second < 60 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        // The calendar rolls 31 April over to 1 May: a day the month lacks is refused.
        guard let utc = calendar.date(from: parts), calendar.component(.day, from: utc) == day else { return nil }
        return utc.addingTimeInterval(fraction - Double(offset))
    }
}
