import Foundation
import FuzzDriver
import FuzzSupport
import TwfeedBase
import TwfeedKit
import TwfeedCore

/// The x-rate-limit-* header parser. The input is the header values, one a line: limit,
/// remaining, reset (and a `Date` header, for when waits are measured against the
/// server's clock). A parsed reset is then used as the feed loop uses it: written into
/// the `poll.rate_limited` log line and handed to the daemon's clock as `nextPollAt`;
/// `x-rate-limit-reset: inf` used to trap there (issue 10, defect 2).
@main
enum FuzzRateLimit: FuzzTarget {
    static let names = ["x-rate-limit-limit", "x-rate-limit-remaining", "x-rate-limit-reset", "date"]

    static func fuzz(_ input: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: input, as: UTF8.self)
        let lines = text.split(separator: "\n", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
        let headers = Dictionary(uniqueKeysWithValues: zip(names, lines))
        guard let rateLimit = RateLimit(headers: headers) else { return }
        blackHole(rateLimit.limit &+ rateLimit.remaining &+ Timestamp.iso8601(rateLimit.resetAt).utf8.count)
        runBlocking { await sleepCancelled(until: rateLimit.resetAt) }
    }
}
