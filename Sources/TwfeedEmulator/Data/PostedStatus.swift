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
