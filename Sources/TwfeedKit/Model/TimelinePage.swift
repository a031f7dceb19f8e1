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
