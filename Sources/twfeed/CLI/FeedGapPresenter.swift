import Foundation
import TwfeedBase
import TwfeedCore

/// How a gap is printed: `twfeed gaps` and, where it lies, `twfeed feed`.
enum FeedGapPresenter {
    /// `feed --json`'s line: `{"gap": {"newerThanId", "olderThanId", "reason"}}`;
    /// `newerThanId` is null for a gap that reaches back as far as the API does (below a
    /// first backfill).
    static func json(_ gap: FeedGap) -> String {
        JSONValue.object([
            "gap": .object([
                "newerThanId": newerThan(gap),
                "olderThanId": .string(gap.olderThanID.description),
                "reason": .string(gap.reason.rawValue),
            ])
        ]).serialized
    }

    /// `gaps --json`'s line: the gap with its feed and when it was recorded.
    static func listJSON(_ gap: FeedGap) -> String {
        JSONValue.object([
            "feed": .string(gap.feed.rawValue),
            "newerThanId": newerThan(gap),
            "olderThanId": .string(gap.olderThanID.description),
            "reason": .string(gap.reason.rawValue),
            "recordedAt": .string(Timestamp.iso8601(gap.recordedAt)),
        ]).serialized
    }

    static func newerThan(_ gap: FeedGap) -> JSONValue {
        gap.reachesBack ? .null : .string(gap.newerThanID.description)
    }

    static func text(_ gap: FeedGap) -> String {
        "--- not read (\(gap.reason.rawValue)): \(range(gap)); how many is not known until read; "
            + "twfeed fill \(gap.feed.rawValue) --max-usd N reads them ---"
    }

    /// `posts between A and B`, or `posts older than B, as far back as the API reaches`.
    static func range(_ gap: FeedGap) -> String {
        gap.reachesBack
            ? "posts older than \(gap.olderThanID), as far back as the API reaches"
            : "posts between \(gap.newerThanID) and \(gap.olderThanID)"
    }
}
