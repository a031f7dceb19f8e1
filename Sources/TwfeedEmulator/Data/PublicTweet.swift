import Foundation

/// The public, read-only view of a `StoredTweet` (string ids, no renderings or counters),
/// for tests that compare what a client kept with what was served.
public struct PublicTweet: Sendable, Equatable {
    public let id: String
    /// The full text, unescaped (what a client shows after decoding `&amp;` etc.); a long
    /// post's is cut at 280 (see `longText`).
    public let text: String
    public let authorID: String
    public let authorUsername: String
    public let createdAt: Date
    public let inReplyToID: String?
    public let retweetOfID: String?
    public let quotedID: String?
    /// How many times others retweeted it (`public_metrics.retweet_count`, v1.1 `retweet_count`).
    public let retweetCount: Int
    /// A long post's whole text, unescaped (v2 `note_tweet.text`); nil for a post of 280 or less.
    public let longText: String?
    /// Its photos, videos and GIFs, in order.
    public let media: [PublicMedia]
    /// Why the API no longer gives it (`Emulator.deleteTweet`); nil while it does.
    public let unavailable: TweetUnavailability?
}

/// A photo, video or GIF as the API describes it.
public struct PublicMedia: Sendable, Equatable {
    /// v2's `media_key`: `3_ID` a photo, `7_ID` a video, `16_ID` a GIF.
    public let key: String
    /// `photo`, `video` or `animated_gif`.
    public let type: String
    /// The picture's path on the emulator's image host (after its base URL): the photo,
    /// or a video's or GIF's still.
    public let path: String
    public let width: Int
    public let height: Int
    public let altText: String?
}
