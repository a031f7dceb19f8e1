import Foundation

/// Where a timeline request starts and stops. Both bounds are exclusive; the dialects
/// translate them (v1.1's `max_id` is inclusive).
package struct TimelineQuery: Sendable, Equatable {
    package var sinceID: TweetID?
    package var untilID: TweetID?
    /// An opaque continuation from the previous page of the same walk, sent with that
    /// walk's first bounds unchanged (`following(_:)`).
    package var pageToken: String?
    /// A smaller page than the endpoint's usual one (nil: the usual): the budget pays for
    /// only so many, or a read whose first page is mostly known asks for few.
    package var maxResults: Int?

    package init(sinceID: TweetID? = nil, untilID: TweetID? = nil, pageToken: String? = nil, maxResults: Int? = nil) {
        self.sinceID = sinceID
        self.untilID = untilID
        self.pageToken = pageToken
        self.maxResults = maxResults
    }

    /// The next page of this query's walk: the same bounds with `token`. A page token
    /// belongs to the query that produced it (a server may make it a position in that
    /// query's results), so a walk never moves its bounds while it follows tokens.
    package func following(_ token: String?) -> TimelineQuery {
        var next = self
        next.pageToken = token
        return next
    }
}

/// One page of a timeline: the feed's own tweets, plus the tweets they reference and
/// every author involved.
package struct TimelinePage: Sendable {
    /// Tweets that belong to the feed, newest first.
    package var tweets: [Tweet]
    /// Retweeted and quoted originals: stored, but not members of the feed.
    package var referencedTweets: [Tweet]
    package var authors: [Author]
    /// Present when the API has more below this page.
    package var nextPageToken: String?
    package var rateLimit: RateLimit?
    /// How many times each of `tweets` was reposted, when the answer says (v2
    /// `public_metrics.retweet_count`, v1.1 `retweet_count`): how the retweets feed finds
    /// the account's own posts that others reposted without reading reposts_of_me.
    package var retweetCounts: [TweetID: Int] = [:]
    /// Posts the page points at that the API says are gone (v2's partial `errors` next
    /// to `data`: a deleted quoted post, a protected author's parent), with its reason:
    /// stored as unavailable, so the reader says why at once and the fetcher does not
    /// pay to ask again.
    package var unavailable: [TweetID: String] = [:]

    package init(
        tweets: [Tweet],
        referencedTweets: [Tweet] = [],
        authors: [Author],
        nextPageToken: String?,
        rateLimit: RateLimit? = nil
    ) {
        self.tweets = tweets
        self.referencedTweets = referencedTweets
        self.authors = authors
        self.nextPageToken = nextPageToken
        self.rateLimit = rateLimit
    }
}
