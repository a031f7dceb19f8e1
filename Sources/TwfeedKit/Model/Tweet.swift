import Foundation

/// A tweet as twfeed stores it, whichever dialect it came from.
public struct Tweet: Sendable, Equatable {
    public var id: TweetID
    public var authorID: TweetID
    public var createdAt: Date
    /// The full, unescaped text. For a retweet, "RT @user: " and the original's full text.
    public var text: String
    public var inReplyToID: TweetID?
    public var retweetOfID: TweetID?
    public var quotedID: TweetID?
    public var conversationID: TweetID?
    /// The object exactly as the API sent it, kept for fields twfeed does not model yet.
    public var rawJSON: String

    public init(
        id: TweetID, authorID: TweetID, createdAt: Date, text: String,
        inReplyToID: TweetID? = nil, retweetOfID: TweetID? = nil, quotedID: TweetID? = nil,
        conversationID: TweetID? = nil, rawJSON: String = "{}"
    ) {
        self.id = id
        self.authorID = authorID
        self.createdAt = createdAt
        self.text = text
        self.inReplyToID = inReplyToID
        self.retweetOfID = retweetOfID
        self.quotedID = quotedID
        self.conversationID = conversationID
        self.rawJSON = rawJSON
    }
}
