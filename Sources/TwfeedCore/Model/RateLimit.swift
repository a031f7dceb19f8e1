import Foundation

/// The x-rate-limit-* headers of one answer, parsed into bounded values.
///
/// Headers come from the network and are hostile until proven otherwise: a value that
/// is not a plain number in its range is treated as missing, never as infinity, NaN or
/// an integer that traps. A reset is only ever used after `localized(now:)` has
/// checked it against the answer's own `Date` (or the local clock) and moved it onto
/// the local clock.
package struct RateLimit: Sendable, Equatable {
    package var limit: Int
    package var remaining: Int
    package var resetAt: Date
    /// The server's `Date` header of the same answer, when it sent one: the reset is
    /// measured against it, so a local clock that disagrees does not move the wait.
    package var serverDate: Date?

    /// The most a count header may say; larger is not a real limit.
    package static let maxCount = 1_000_000
    /// A reset further than this from the answer's time (either way) is absurd.
    package static let maxResetDistance: Double = 86_400
    /// Epoch seconds beyond which a stored or sent time is nonsense (year 2286).
    package static let maxEpoch: Double = 10_000_000_000

    package init(limit: Int, remaining: Int, resetAt: Date, serverDate: Date? = nil) {
        self.limit = limit
        self.remaining = remaining
        self.resetAt = resetAt
        self.serverDate = serverDate
    }

    /// Reads the three headers (and `Date`); nil unless all three are present and in range.
    package init?(headers: [String: String]) {
        guard let limit = headers["x-rate-limit-limit"].flatMap(Self.count),
            let remaining = headers["x-rate-limit-remaining"].flatMap(Self.count),
            let reset = headers["x-rate-limit-reset"].flatMap(Self.epoch)
        else { return nil }
        self.init(
            limit: limit,
            remaining: remaining,
            resetAt: reset,
            serverDate: headers["date"].flatMap(HTTPDate.parse)
        )
    }

    /// A count header: a plain non-negative integer up to `maxCount`.
    static func count(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 9, trimmed.utf8.allSatisfy({ (48...57).contains($0) }),
            let value = Int(trimmed), value <= maxCount
        else { return nil }
        return value
    }

    /// An epoch header: plain digits (with an optional fraction), finite and positive.
    static func epoch(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 20,
            trimmed.utf8.allSatisfy({ (48...57).contains($0) || $0 == UInt8(ascii: ".") }),
            let value = Double(trimmed), value.isFinite, value > 0, value < maxEpoch
        else { return nil }
        return Date(timeIntervalSince1970: value)
    }

    /// This limit with its reset on the local clock, or nil when the reset is absurd
    /// (more than a day from the answer's time). With a server `Date` the wait is
    /// `reset - serverDate` added to `now`; without one the reset is taken as is.
    package func localized(now: Date) -> RateLimit? {
        let reference = serverDate ?? now
        let wait = resetAt.timeIntervalSince(reference)
        guard wait.isFinite, abs(wait) <= Self.maxResetDistance, remaining >= 0, remaining <= Self.maxCount,
            limit >= 0, limit <= Self.maxCount
        else { return nil }
        return RateLimit(limit: limit, remaining: remaining, resetAt: now.addingTimeInterval(wait))
    }

    /// When a 429 may be followed by another request: the localized reset if it is
    /// still ahead, otherwise nil (missing, past or absurd: the caller waits a floor).
    package static func usableReset(_ rateLimit: RateLimit?, now: Date) -> Date? {
        guard let reset = rateLimit?.localized(now: now)?.resetAt, reset > now else { return nil }
        return reset
    }

    /// The wait after a 429 whose reset cannot be used: 60 s, doubling per consecutive
    /// such 429, up to the 15-minute rate-limit window. Never zero, so no tight loop.
    package static let floor = Backoff(base: 60, cap: 900, jitter: .added(0))
}

/// RFC 9110's preferred HTTP-date, `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int32(parts[1]), (1...31).contains(day),
            let month = months.firstIndex(of: String(parts[2])),
            let year = Int32(parts[3]), (1970...2200).contains(year)
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int32(clock[0]), let minute = Int32(clock[1]), let second = Int32(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        var broken = tm()
        broken.tm_year = year - 1900
        broken.tm_mon = Int32(month)
        broken.tm_mday = day
        broken.tm_hour = hour
        broken.tm_min = minute
        broken.tm_sec = second
        let seconds = timegm(&broken)
        guard seconds > 0, Double(seconds) < RateLimit.maxEpoch else { return nil }
        return Date(timeIntervalSince1970: Double(seconds))
    }
}
