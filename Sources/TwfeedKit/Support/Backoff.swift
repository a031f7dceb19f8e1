import Foundation

/// Exponential backoff with jitter: after the n-th consecutive failure the full delay
/// is `base * 2^(n-1)`, capped; the jitter spreads it so several feeds (or several
/// daemons) do not retry in lockstep. One type for the feeds, the outbox and the
/// image fetcher; they differ only in configuration.
public struct Backoff: Sendable, Equatable {
    /// How the random part is applied to the full delay.
    public enum Jitter: Sendable, Equatable {
        /// Between half and all of the full delay: a poll may come early, never late.
        case lowerHalf
        /// The full delay plus up to this fraction of it, never above the cap: a post
        /// is never retried sooner than the base.
        case added(Double)
    }

    public var base: Double
    public var cap: Double
    public var jitter: Jitter

    public init(base: Double, cap: Double, jitter: Jitter = .lowerHalf) {
        self.base = base
        self.cap = cap
        self.jitter = jitter
    }

    /// Transient feed failures: 15 s, 30 s, … up to 15 minutes.
    public static let transient = Backoff(base: 15, cap: 900)
    /// 401: the credentials will not fix themselves in seconds.
    public static let unauthorized = Backoff(base: 900, cap: 3600)
    /// The outbox after network errors and 5xx: 30 s, doubling, at most an hour, plus up
    /// to a fifth more as jitter (never less than the base).
    public static let outbox = Backoff(base: 30, cap: 3600, jitter: .added(0.2))

    /// The wait after `failures` consecutive failures; `random` in 0...1.
    public func delay(afterFailures failures: Int, random: Double = Double.random(in: 0 ... 1)) -> Double {
        let exponent = Double(max(0, min(failures - 1, 30)))
        let full = min(cap, base * pow(2, exponent))
        switch jitter {
        case .lowerHalf: return full / 2 + full / 2 * random
        case .added(let fraction): return min(cap, full * (1 + fraction * random))
        }
    }
}
