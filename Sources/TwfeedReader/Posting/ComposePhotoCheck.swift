import Foundation
import TwfeedCore

/// What the compose page checks of a photo before it is queued, so the API never
/// refuses it hours later: its type read from the bytes (never from the name), a still
/// GIF, at most 5 MB, alt text of at most 1,000 characters. The messages are the CLI's
/// (`twfeed post --photo`), without the culprit, which the page names with its part.
///
/// The reader's own until the CLI's shared photo checks are on main; then this calls
/// them (one place, so the page and the CLI refuse alike).
enum ComposePhotoCheck {
    /// The API attaches up to 4 photos to one post.
    static let maxPhotos = 4
    /// X's "5 MB" as its own refusal counts it (5 × 1024 × 1024 bytes).
    static let maxBytes = 5 * 1024 * 1024
    static let maxAltLength = 1_000

    /// The photo's type; else `.invalidData` saying why it cannot be posted.
    static func check(_ bytes: Data, alt: String?) throws -> PhotoType {
        let head = [UInt8](bytes.prefix(12))
        guard let format = ImageFormat.sniff(head) else { throw refusal("not a JPEG, PNG, WebP or GIF image") }
        if bytes.count > maxBytes { throw refusal("\(bytes.count) bytes, over the 5 MB limit (\(maxBytes) bytes)") }
        let type: PhotoType
        switch format {
        case .jpeg: type = .jpeg
        case .png: type = .png
        case .webp: type = .webp
        case .gif: type = .gif
        }
        // Nearly every animated GIF carries the looping extension; a still one does not.
        if type == .gif, bytes.range(of: Data("NETSCAPE2.0".utf8)) != nil {
            throw refusal("an animated GIF; only a still GIF can be posted")
        }
        // Counted in Unicode code points, as an OpenAPI `maxLength` is.
        if let alt, alt.unicodeScalars.count > maxAltLength {
            throw refusal("alt text is \(alt.unicodeScalars.count)/\(maxAltLength) characters")
        }
        return type
    }

    static func refusal(_ message: String) -> TwfeedError { TwfeedError(.invalidData, message) }
}
