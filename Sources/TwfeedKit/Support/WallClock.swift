import Foundation

/// The daemon's source of time.
///
/// Rate-limit resets and the outbox's expiry are wall-clock facts (epoch seconds from
/// the API, ages in hours), so the clock speaks `Date`. Everything that waits goes
/// through `sleep(until:)`, which lets tests drive time with a `ManualClock` instead of
/// sleeping.
public protocol WallClock: Sendable {
    func now() -> Date
    func sleep(until deadline: Date) async throws
}

extension WallClock {
    public func sleep(for seconds: Double) async throws {
        try await sleep(until: now().addingTimeInterval(seconds))
    }
}

/// The real clock.
public struct SystemClock: WallClock {
    public init() {}

    /// A year: any longer wait is a bug upstream, and the caller loops anyway.
    static let longestSleep: Double = 365 * 86_400

    public func now() -> Date { Date() }

    public func sleep(until deadline: Date) async throws {
        // Bounded before converting: Int64(inf) or Int64(1e300) would trap.
        let seconds = min(deadline.timeIntervalSinceNow, Self.longestSleep)
        if seconds > 0 {
            try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
        } else {
            try Task.checkCancellation()
        }
    }
}
