import Foundation

/// A tweet as twfeed stores it, whichever dialect it came from.
package struct Tweet: Sendable, Equatable {
    package var id: TweetID
    package var authorID: UserID
    package var createdAt: Date
    /// The full, unescaped text: a long post's whole text (v2 `note_tweet`), not the cut
    /// one. For a retweet, "RT @user: " and the original's full text.
    package var text: String
    package var inReplyToID: TweetID?
    /// Whom it answers, as its own answer says; nil when it replies to nothing or the
    /// answer did not say. Read back from the store it holds the handle stored
    /// (`username`) only.
    package var repliedUser: RepliedUser?
    package var retweetOfID: TweetID?
    package var quotedID: TweetID?
    /// The first post of its thread: its own id when it replies to nothing (both
    /// dialects). v2 says it (`conversation_id`); for a v1.1 reply the store works it out
    /// from the stored chain (`AppDatabase.settleConversations`). Nil only on the way in.
    package var conversationID: TweetID?
    /// Photos, videos and GIFs, in the order the post shows them.
    package var media: [Media]
    /// The links its text holds, as the API marked them (`entities.urls`, a repost's and
    /// a quote's included): read from the answer by the client, stored beside the post.
    package var links: [TweetLink]
    /// The object exactly as the API sent it, kept for fields twfeed does not model yet.
    package var rawJSON: String
    /// When the account's own deletion of it went out (`twfeed delete`): it is kept,
    /// and every view shows it gone.
    package var deletedAt: Date?

    package init(
        id: TweetID,
        authorID: UserID,
        createdAt: Date,
        text: String,
        inReplyToID: TweetID? = nil,
        repliedUser: RepliedUser? = nil,
        retweetOfID: TweetID? = nil,
        quotedID: TweetID? = nil,
        conversationID: TweetID? = nil,
        media: [Media] = [],
        links: [TweetLink] = [],
        rawJSON: String = "{}",
        deletedAt: Date? = nil
    ) {
        self.id = id
        self.authorID = authorID
        self.createdAt = createdAt
        self.text = text
        self.inReplyToID = inReplyToID
        self.repliedUser = repliedUser
        self.retweetOfID = retweetOfID
        self.quotedID = quotedID
        self.conversationID = conversationID
        self.media = media
        self.links = links
        self.rawJSON = rawJSON
        self.deletedAt = deletedAt
    }
}

extension Tweet {
    /// A repost's text: "RT @user: " and the original's whole text, built from the
    /// original it points at, never from the repost's own text (cut short, or a
    /// withholding notice when the reposter's or the original's account is withheld).
    package static func repostText(username: String, original: String) -> String {
        "RT @\(username): " + original
    }
}
