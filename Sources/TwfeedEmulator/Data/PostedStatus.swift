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
    /// The uploaded photos it shows (`media.media_ids`), in order (`Emulator.mediaUploads`
    /// has their bytes' SHA-256 and alt text).
    public let mediaIDs: [String]
    /// When a client deleted it through the API; nil while it stands.
    public internal(set) var deletedAt: Date?
}

/// A post deleted through the API.
public struct PostDeletion: Sendable, Equatable {
    public let id: String
    public let dialect: EmulatorDialect
    public let at: Date
}
