import Foundation

/// The daemon's source of time: two clocks, each for what it is good at.
///
/// The wall clock (`now()`) is for timestamps and for what the API and the user state in
/// wall-clock terms: rate-limit resets (epoch seconds), the outbox's expiry (ages in
/// hours). It can jump: NTP steps it, a user sets it. So nothing that measures a span
/// reads it: every wait (`sleep(for:)`) and the watchdog's deadlines use the monotonic
/// clock (`monotonicNow()`), which only moves forward at the rate time passes. A wait
/// until a wall-clock time (`sleep(until:)`) is turned into a span once, at the moment
/// of deciding, so a later step of the wall clock neither cuts it short nor stretches it.
/// Tests drive both with a `ManualClock` instead of sleeping.
package protocol WallClock: Sendable {
    /// The wall clock.
    func now() -> Date
    /// Monotonic seconds since an arbitrary origin (fixed for the process).
    func monotonicNow() -> Double
    /// Sleeps for a span of monotonic time.
    func sleep(for seconds: Double) async throws
}

extension WallClock {
    /// Sleeps until a wall-clock time: the span to it is measured now, once, and slept
    /// on the monotonic clock.
    package func sleep(until deadline: Date) async throws {
        try await sleep(for: deadline.timeIntervalSince(now()))
    }

    /// The monotonic time that corresponds to a wall-clock time, as measured now.
    package func monotonic(at date: Date) -> Double {
        monotonicNow() + date.timeIntervalSince(now())
    }
}

/// The real clock.
package struct SystemClock: WallClock {
    package init() {}

    /// A year: any longer wait is a bug upstream, and the caller loops anyway.
    static let longestSleep: Double = 365 * 86_400

    private static let origin = ContinuousClock.now

    package func now() -> Date { Date() }

    package func monotonicNow() -> Double {
        let elapsed = ContinuousClock.now - Self.origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    package func sleep(for seconds: Double) async throws {
        // Bounded before converting: Int64(inf) or Int64(1e300) would trap (NaN fails `> 0`).
        let seconds = min(seconds, Self.longestSleep)
        if seconds > 0 {
            try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
        } else {
            try Task.checkCancellation()
        }
    }
}
