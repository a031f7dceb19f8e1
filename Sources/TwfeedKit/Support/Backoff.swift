import Foundation

/// Exponential backoff with jitter: after the n-th consecutive failure, wait a random
/// time between half and all of `base * 2^(n-1)`, capped. The jitter keeps several
/// feeds (or several users) from retrying in lockstep.
public struct Backoff: Sendable, Equatable {
    public var base: Double
    public var cap: Double

    public init(base: Double, cap: Double) {
        self.base = base
        self.cap = cap
    }

    /// Transient failures: 15 s, 30 s, … up to 15 minutes.
    public static let transient = Backoff(base: 15, cap: 900)
    /// 401: the credentials will not fix themselves in seconds.
    public static let unauthorized = Backoff(base: 900, cap: 3600)

    public func delay(afterFailures failures: Int, random: Double = Double.random(in: 0 ... 1)) -> Double {
        let exponent = Double(max(0, min(failures - 1, 30)))
        let full = min(cap, base * pow(2, exponent))
        return full / 2 + full / 2 * random
    }
}
