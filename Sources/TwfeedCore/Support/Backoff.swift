import Foundation

/// Exponential backoff with jitter: after the n-th consecutive failure the full delay
/// is `base * 2^(n-1)`, capped; the jitter spreads it so several feeds (or several
/// daemons) do not retry in lockstep. One type for the feeds, the outbox and the
/// image fetcher; they differ only in configuration.
package struct Backoff: Sendable, Equatable {
    /// How the random part is applied to the full delay.
    package enum Jitter: Sendable, Equatable {
        /// Between half and all of the full delay: a poll may come early, never late.
        case lowerHalf
        /// The full delay plus up to this fraction of it, never above the cap: a post
        /// is never retried sooner than the base.
        case added(Double)
    }

    package var base: Double
    package var cap: Double
    package var jitter: Jitter

    package init(base: Double, cap: Double, jitter: Jitter = .lowerHalf) {
        self.base = base
        self.cap = cap
        self.jitter = jitter
    }

    /// Transient feed failures: 15 s, 30 s, … up to 15 minutes.
    package static let transient = Backoff(base: 15, cap: 900)
    /// 401: the credentials will not fix themselves in seconds.
    package static let unauthorized = Backoff(base: 900, cap: 3600)
    /// The outbox after network errors and 5xx: 30 s, doubling, at most an hour, plus up
    /// to a fifth more as jitter (never less than the base).
    package static let outbox = Backoff(base: 30, cap: 3600, jitter: .added(0.2))

    /// The wait after `failures` consecutive failures; `random` in 0...1.
    package func delay(afterFailures failures: Int, random: Double = Double.random(in: 0...1)) -> Double {
        let exponent = Double(max(0, min(failures - 1, 30)))
        let full = min(cap, base * pow(2, exponent))
        switch jitter {
        case .lowerHalf: return full / 2 + full / 2 * random
        case .added(let fraction): return min(cap, full * (1 + fraction * random))
        }
    }
}
