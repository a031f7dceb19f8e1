import Foundation

/// The public, read-only view of a `StoredTweet` (string ids, no renderings or counters),
/// for tests that compare what a client kept with what was served.
public struct PublicTweet: Sendable, Equatable {
    public let id: String
    /// The full text, unescaped (what a client shows after decoding `&amp;` etc.).
    public let text: String
    public let authorID: String
    public let authorUsername: String
    public let createdAt: Date
    public let inReplyToID: String?
    public let retweetOfID: String?
    public let quotedID: String?
    /// How many times others retweeted it (`public_metrics.retweet_count`, v1.1 `retweet_count`).
    public let retweetCount: Int
}
