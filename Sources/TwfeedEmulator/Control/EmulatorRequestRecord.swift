import Foundation

/// One API request as the emulator saw it (control routes are not recorded).
public struct EmulatorRequestRecord: Sendable {
    public let method: String
    /// The path without the query.
    public let path: String
    /// The raw query string (without `?`), empty when there is none.
    public let query: String
    /// The status answered; for a reset connection, the status that would have been sent.
    public let status: Int
    /// An `EmulatorEndpoint` name ("home", "mentions", "retweets", "post", "me", "ownPosts",
    /// "lookup"), or "oauth", "images" or "unknown".
    public let endpoint: String
    /// The dialect of an API endpoint (nil for OAuth, images and unknown paths).
    public let dialect: EmulatorDialect?
    /// The injected fault, if one was applied (its control-route name, e.g. "503", "reset").
    public let fault: String?
    public let date: Date
    /// The request's `oauth_nonce`, if it was signed: a client's retry shows whether it
    /// signed afresh or replayed the same header.
    public let nonce: String?
    /// Which request this was on its connection (1: the first; more: a kept-alive one).
    public let connectionRequestNumber: Int
}
