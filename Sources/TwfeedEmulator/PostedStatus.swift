import Foundation

/// A status a client posted, as the emulator accepted it.
public struct PostedStatus: Sendable, Equatable {
    /// The id the API answered with (also the new tweet's id in the home feed).
    public let id: String
    /// The text exactly as received (unescaped).
    public let text: String
    public let inReplyToID: String?
    public let dialect: EmulatorDialect
    public let createdAt: Date
}

/// One API request as the emulator saw it (control routes are not recorded).
public struct EmulatorRequestRecord: Sendable {
    public let method: String
    /// The path without the query.
    public let path: String
    /// The raw query string (without `?`), empty when there is none.
    public let query: String
    /// The status answered; for a reset connection, the status that would have been sent.
    public let status: Int
    /// "home", "mentions", "retweets", "post", "me", "oauth", "images" or "unknown".
    public let endpoint: String
    public let dialect: EmulatorDialect?
    /// The injected fault, if one was applied (its control-route name, e.g. "503", "reset").
    public let fault: String?
    public let date: Date
}

/// A tweet as the emulator stores it, for tests that compare what a client kept with
/// what was served.
public struct EmulatorTweet: Sendable, Equatable {
    public let id: String
    /// The full text, unescaped (what a client shows after decoding `&amp;` etc.).
    public let text: String
    public let authorID: String
    public let authorUsername: String
    public let createdAt: Date
    public let inReplyToID: String?
    public let retweetOfID: String?
    public let quotedID: String?
}
