import Foundation

/// A range of a feed that twfeed knowingly did not read: the posts newer than
/// `newerThanID` and older than `olderThanID` (both exclusive, both the server's ids).
/// A gap below a feed's first backfill has no lower end (`reachesBack`, `newerThanID`
/// 0): it reaches back as far as the API does.
///
/// A feed without silent gaps was the promise when reading was free; with a budget, a
/// day can bring more posts than the day may pay for. Then the newest part is read and
/// what was skipped is written down, so `twfeed gaps`, `feed --json` and the reader can
/// say where it lies and `twfeed fill` can read it later.
package struct FeedGap: Sendable, Equatable, Hashable {
    /// The store's row id; 0 for a gap not yet stored.
    package var id: Int64
    package var feed: Feed
    package var newerThanID: TweetID
    package var olderThanID: TweetID
    package var reason: Reason
    package var recordedAt: Date

    /// Why a range was skipped. The raw values are the `reason` of `gaps --json`.
    package enum Reason: String, Sendable, CaseIterable, Hashable {
        /// Today's share of `api.budget.monthlyUSD` was spent.
        case budget
    }

    package init(id: Int64 = 0, feed: Feed, newerThanID: TweetID, olderThanID: TweetID, reason: Reason, recordedAt: Date) {
        self.id = id
        self.feed = feed
        self.newerThanID = newerThanID
        self.olderThanID = olderThanID
        self.reason = reason
        self.recordedAt = recordedAt
    }

    /// The `newerThanID` of a gap with no lower end: below a first backfill the budget
    /// stopped, the history as far back as the API reaches.
    package static let noLowerEnd = TweetID(0)

    /// Whether the gap reaches back as far as the API does (no lower end).
    package var reachesBack: Bool { newerThanID == Self.noLowerEnd }

    /// Whether a post with this id lies inside the gap.
    package func contains(_ id: TweetID) -> Bool {
        id > newerThanID && id < olderThanID
    }
}
