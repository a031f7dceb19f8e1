import Foundation
import TwfeedCore

/// The compose page's time to send: a browser's `datetime-local` value
/// (`2026-12-01T09:00`, seconds optional) and a UTC offset field (`+01:00`, `-0500`,
/// `Z`). A page without script cannot learn the browser's zone, so the offset is
/// either typed or, left empty, the zone of the machine the reader runs on (which for a
/// reader on loopback is the person's own): that zone's offset on that date, summer
/// time included. A time typed with its own offset (ISO 8601, as `--at` takes it) keeps
/// it, whatever the offset field says.
enum ComposeTime {
    static let example = "2026-12-01T09:00"

    /// How late a time may be and still count as now: the field has minutes only, so
    /// the current minute is up to 59 s past.
    static let grace: TimeInterval = 60

    /// The instant, nil for an empty field; `.invalidData` saying what is wrong for a
    /// malformed time or one in the past.
    static func parse(_ text: String, offset: String, zone: TimeZone = .current, now: Date) throws -> Date? {
        guard !text.isEmpty else { return nil }
        let malformed = TwfeedError(
            .invalidData,
            "time to send: \"\(text)\" is not a date and time like \(example) (with a UTC offset like +01:00, or none for \(zoneName(zone)))"
        )
        guard let (local, ownOffset) = split(text) else { throw malformed }
        let seconds: Int?
        if let ownOffset {
            seconds = offsetSeconds(ownOffset)
        } else if !offset.isEmpty {
            guard let typed = offsetSeconds(offset) else {
                throw TwfeedError(.invalidData, "time to send: the UTC offset \"\(offset)\" is not like +01:00, -05:00 or Z")
            }
            seconds = typed
        } else {
            seconds = nil
        }
        guard let date = instant(local, zone: seconds.flatMap(TimeZone.init(secondsFromGMT:)) ?? zone) else { throw malformed }
        if date < now.addingTimeInterval(-grace) {
            throw TwfeedError(.invalidData, "time to send: \(TimeModel.exact(date)) is in the past; leave it empty to send now")
        }
        return date
    }

    /// `Etc/UTC, now +00:00`: what the page says an empty offset means.
    static func zoneName(_ zone: TimeZone, at date: Date = Date()) -> String {
        "this machine's zone (\(zone.identifier), now \(offsetText(zone.secondsFromGMT(for: date))))"
    }

    static func offsetText(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let hours = minutes / 60
        return (seconds < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours):" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
    }

    /// The local part (`YYYY-MM-DDTHH:MM[:SS]`) and an offset written after it, if any.
    static func split(_ text: String) -> (local: Substring, offset: Substring?)? {
        let head = text.prefix(16)
        guard head.count == 16 else { return nil }
        var rest = text.dropFirst(16)
        var local = head
        if rest.first == ":" {
            guard rest.count >= 3 else { return nil }
            local = text.prefix(19)
            rest = rest.dropFirst(3)
        }
        return (local, rest.isEmpty ? nil : rest)
    }

    /// `Z`, `UTC`, `±HH:MM` or `±HHMM` in seconds east of UTC.
    static func offsetSeconds(_ text: Substring) -> Int? { offsetSeconds(String(text)) }

    static func offsetSeconds(_ text: String) -> Int? {
        if text == "Z" || text == "z" || text.uppercased() == "UTC" { return 0 }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().replacingOccurrences(of: ":", with: "")
        guard digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let hours = Int(digits.prefix(2)),
            let minutes = Int(digits.suffix(2)),
            hours < 24, minutes < 60
        else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// `YYYY-MM-DDTHH:MM[:SS]` in `zone`; nil for anything else, a day the month lacks
    /// included (the calendar would roll 31 April over to 1 May).
    static func instant(_ local: Substring, zone: TimeZone) -> Date? {
        let bytes = Array(local.utf8)
        let shape = bytes.count == 19 ? "dddd-dd-ddTdd:dd:dd" : "dddd-dd-ddTdd:dd"
        guard bytes.count == shape.utf8.count else { return nil }
        for (byte, expected) in zip(bytes, shape.utf8) {
            if expected == UInt8(ascii: "d") {
                guard (48...57).contains(byte) else { return nil }
            } else if expected == UInt8(ascii: "T") {
                guard byte == UInt8(ascii: "T") || byte == UInt8(ascii: "t") || byte == UInt8(ascii: " ") else { return nil }
            } else if byte != expected {
                return nil
            }
        }
        func number(_ from: Int, _ count: Int) -> Int { Int(String(decoding: bytes[from..<from + count], as: UTF8.self))! }
        let (year, month, day, hour, minute) = (number(0, 4), number(5, 2), number(8, 2), number(11, 2), number(14, 2))
        let second = bytes.count == 19 ? number(17, 2) : 0
        guard (1...12).contains(month), hour < 24, minute < 60, second < 60 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: parts), calendar.component(.day, from: date) == day else { return nil }
        return date
    }
}
