import Foundation

/// A photo a client uploaded, as `Emulator.mediaUploads` and `GET /_emulator/posted`
/// report it: what a test holds against the files it queued.
public struct EmulatorMediaUpload: Sendable, Equatable {
    /// The media id the upload answered (`data.id`).
    public let id: String
    /// `3_` and the id.
    public let key: String
    /// The uploaded bytes' SHA-256, 64 lowercase hex digits.
    public let sha256: String
    public let byteCount: Int
    /// The type read from the bytes: `image/jpeg`, `image/png`, `image/webp`, `image/gif`.
    public let contentType: String
    /// Read from the bytes' header; 0 when it does not say.
    public let width: Int
    public let height: Int
    /// `multipart` or `json` (base64).
    public let encoding: String
    /// The alt text last set by `POST /2/media/metadata`, and how many times it was set.
    public let altText: String?
    public let altTextSets: Int
    public let uploadedAt: Date
    public let expiresAt: Date
    /// The posts it was attached to (normally one).
    public let postIDs: [String]

    init(_ media: UploadedMedia) {
        id = String(media.id)
        key = media.key
        sha256 = media.sha256
        byteCount = media.byteCount
        contentType = media.format.mimeType
        width = media.width
        height = media.height
        encoding = media.encoding.rawValue
        altText = media.altText
        altTextSets = media.altTextSets
        uploadedAt = media.uploadedAt
        expiresAt = media.expiresAt
        postIDs = media.postIDs.map { String($0) }
    }
}
