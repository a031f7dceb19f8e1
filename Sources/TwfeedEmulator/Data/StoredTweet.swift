import Foundation

/// A tweet as the emulator keeps it internally, with its counters and both renderings:
/// text is kept raw (unescaped); `rendered` is what goes on the wire. Tests see the
/// read-only `PublicTweet` instead, so they cannot depend on how the store works.
struct StoredTweet: Sendable {
    let id: UInt64
    /// Whole seconds; seeded tweets are shifted to end just before the start time.
    var createdAt: Date
    let authorID: UInt64
    let text: String
    let urls: [TweetURL]
    let rendered: RenderedText
    /// v1.1's non-extended `text` when the text is over 140 scalars (nil when it fits).
    let shortened: RenderedText?
    /// A long post's whole text (v2 `note_tweet`); `text` and `rendered` are then cut.
    var note: RenderedText?
    /// `note`'s text unescaped, as the author wrote it.
    var noteRaw: String?
    let inReplyToTweetID: UInt64?
    let inReplyToUserID: UInt64?
    let retweetedID: UInt64?
    let quotedID: UInt64?
    let conversationID: UInt64
    let source: String
    var retweetCount = 0
    var likeCount = 0
    var replyCount = 0
    var quoteCount = 0
    /// Deleted after it was placed in a timeline: it still takes a slot when a page is cut
    /// and is dropped afterwards, so pages come back short as the real API's do.
    var deleted = false
    /// Why a lookup cannot have it, once `deleted` (`Emulator.deleteTweet`): nil is a
    /// plain deletion.
    var unavailability: TweetUnavailability?
    /// Photos, videos and GIFs, in the order the post shows them.
    var media: [EmulatedMedia] = []

    var isReply: Bool { inReplyToTweetID != nil }
    var isRetweet: Bool { retweetedID != nil }
}
