import Foundation

/// A photo taken by `POST /2/media/upload`: its bytes as received (the image host serves
/// them unchanged once it is posted), what the API told the client about it, its alt
/// text, and the posts it was attached to.
struct UploadedMedia: Sendable {
    /// How the upload came: a `multipart/form-data` part or JSON with base64.
    enum Encoding: String, Sendable {
        case multipart, json
    }

    let id: UInt64
    let format: ImageFormat
    /// The bytes, dropped once the id expired without being posted (nothing can use
    /// them then), so a long run does not keep every abandoned upload.
    var bytes: [UInt8]?
    let byteCount: Int
    let width: Int
    let height: Int
    let sha256: String
    let encoding: Encoding
    let uploadedAt: Date
    /// When the id stops being usable: `uploadedAt` plus the `expires_after_secs` answered.
    let expiresAt: Date
    var altText: String?
    /// How many times `POST /2/media/metadata` set its alt text.
    var altTextSets = 0
    /// The posts it was attached to, in order (normally one).
    var postIDs: [UInt64] = []

    /// v2's `media_key`: a photo's (`3_`), whatever the format.
    var key: String { EmulatedMedia.Kind.photo.keyPrefix + String(id) }

    func isExpired(at now: Date) -> Bool { now >= expiresAt }

    /// The media item a post shows, with the alt text as it is when the post is made.
    var asPostedMedia: EmulatedMedia {
        EmulatedMedia(id: id, kind: .photo, width: width, height: height, altText: altText, fileExtension: format.fileExtension)
    }
}
