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

    public func now() -> Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 {
            try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
        } else {
            try Task.checkCancellation()
        }
    }
}
