import Foundation
import TwfeedBase
import TwfeedCore

/// How a gap is printed: `twfeed gaps` and, where it lies, `twfeed feed`.
enum FeedGapPresenter {
    /// `feed --json`'s line: `{"gap": {"newerThanId", "olderThanId", "reason"}}`.
    static func json(_ gap: FeedGap) -> String {
        JSONValue.object([
            "gap": .object([
                "newerThanId": .string(gap.newerThanID.description),
                "olderThanId": .string(gap.olderThanID.description),
                "reason": .string(gap.reason.rawValue),
            ])
        ]).serialized
    }

    /// `gaps --json`'s line: the gap with its feed and when it was recorded.
    static func listJSON(_ gap: FeedGap) -> String {
        JSONValue.object([
            "feed": .string(gap.feed.rawValue),
            "newerThanId": .string(gap.newerThanID.description),
            "olderThanId": .string(gap.olderThanID.description),
            "reason": .string(gap.reason.rawValue),
            "recordedAt": .string(Timestamp.iso8601(gap.recordedAt)),
        ]).serialized
    }

    static func text(_ gap: FeedGap) -> String {
        "--- not read (\(gap.reason.rawValue)): posts between \(gap.newerThanID) and \(gap.olderThanID); "
            + "twfeed fill \(gap.feed.rawValue) --max-usd N reads them ---"
    }
}
