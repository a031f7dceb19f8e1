import TwfeedCore

/// A photo of one of your posts, as the archive holds it: `data/tweets_media/ID-NAME.EXT`
/// (`tweet_media/` in 2019-2020), NAME.EXT being the last part of the photo's
/// `media_url_https`.
package struct ArchivedPhoto: Sendable, Equatable {
    package var tweetID: TweetID
    /// The entry's path inside the archive, as the archive names it (for messages).
    package var path: String
    /// NAME.EXT: what the post's media URL ends with.
    package var mediaName: String
    /// Its size once read (uncompressed).
    package var byteCount: Int

    package init(tweetID: TweetID, path: String, mediaName: String, byteCount: Int) {
        self.tweetID = tweetID
        self.path = path
        self.mediaName = mediaName
        self.byteCount = byteCount
    }
}
