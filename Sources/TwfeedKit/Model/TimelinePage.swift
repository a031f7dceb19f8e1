import Foundation

/// Where a timeline request starts and stops. Both bounds are exclusive; the dialects
/// translate them (v1.1's `max_id` is inclusive).
public struct TimelineQuery: Sendable, Equatable {
    public var sinceID: TweetID?
    public var untilID: TweetID?
    /// An opaque continuation from the previous page of the same walk.
    public var pageToken: String?

    public init(sinceID: TweetID? = nil, untilID: TweetID? = nil, pageToken: String? = nil) {
        self.sinceID = sinceID
        self.untilID = untilID
        self.pageToken = pageToken
    }
}

/// One page of a timeline: the feed's own tweets, plus the tweets they reference and
/// every author involved.
public struct TimelinePage: Sendable {
    /// Tweets that belong to the feed, newest first.
    public var tweets: [Tweet]
    /// Retweeted and quoted originals: stored, but not members of the feed.
    public var referencedTweets: [Tweet]
    public var authors: [Author]
    /// Present when the API has more below this page.
    public var nextPageToken: String?
    public var rateLimit: RateLimit?

    public init(
        tweets: [Tweet], referencedTweets: [Tweet] = [], authors: [Author],
        nextPageToken: String?, rateLimit: RateLimit? = nil
    ) {
        self.tweets = tweets
        self.referencedTweets = referencedTweets
        self.authors = authors
        self.nextPageToken = nextPageToken
        self.rateLimit = rateLimit
    }
}

/// The x-rate-limit-* headers of one answer.
public struct RateLimit: Sendable, Equatable {
    public var limit: Int
    public var remaining: Int
    public var resetAt: Date

    public init(limit: Int, remaining: Int, resetAt: Date) {
        self.limit = limit
        self.remaining = remaining
        self.resetAt = resetAt
    }

    /// The latest reset taken as one (2100-01-01): `inf`, `nan` or 1e300 would trap where
    /// the reset is logged or slept until.
    static let latestReset: Double = 4_102_444_800

    /// Reads the three headers; nil unless all are present and numeric, and the reset is
    /// an epoch time between 1970 and 2100.
    public init?(headers: [String: String]) {
        guard let limit = headers["x-rate-limit-limit"].flatMap({ Int($0) }),
              let remaining = headers["x-rate-limit-remaining"].flatMap({ Int($0) }),
              let reset = headers["x-rate-limit-reset"].flatMap({ Double($0) }),
              reset >= 0, reset <= Self.latestReset
        else { return nil }
        self.init(limit: limit, remaining: remaining, resetAt: Date(timeIntervalSince1970: reset))
    }
}
