import Foundation
import Testing
import TwfeedBase
import TwfeedCore

/// `x-rate-limit-reset` values the rate-limit fuzzer (`scripts/fuzz rate-limit`,
/// docs/FUZZING.md) found trapping the daemon once parsed: the feed loop writes the reset
/// into its `poll.rate_limited` line and sleeps until it, and both trapped on a reset of
/// `inf` or 1e300 (issue 10, defect 2). Such a reset is now no reset at all, as a missing
/// header is.
struct FuzzRateLimitRegressionTests {
    func headers(reset: String) -> [String: String] {
        ["x-rate-limit-limit": "15", "x-rate-limit-remaining": "0", "x-rate-limit-reset": reset]
    }

    /// The first is the fuzzer's own find (2.9e20 seconds: Int64 overflows writing it as
    /// milliseconds); the rest are its neighbours.
    @Test(arguments: ["292233720368547758070", "inf", "-inf", "nan", "1e300", "9e15", "-1", "0", "99999999999999999999"])
    func anAbsurdResetIsNoReset(reset: String) {
        #expect(RateLimit(headers: headers(reset: reset)) == nil)
    }

    @Test(arguments: [("1", 1.0), ("1732270500", 1732270500), ("1732270500.5", 1732270500.5)])
    func aPlausibleResetIsKept(reset: String, epoch: Double) throws {
        let rateLimit = try #require(RateLimit(headers: headers(reset: reset)))
        #expect(rateLimit.resetAt == Date(timeIntervalSince1970: epoch))
        #expect(rateLimit.remaining == 0)
        #expect(!Timestamp.iso8601(rateLimit.resetAt).isEmpty)
    }
}
