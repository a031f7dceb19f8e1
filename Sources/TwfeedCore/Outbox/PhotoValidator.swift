import Foundation

/// What `twfeed post --photo` and `twfeed thread --photo` check before a photo is
/// queued, so the API never refuses it hours later: the type read from the bytes (never
/// from the name), a still GIF, the size, the alt text's length, how many on one post.
/// Each refusal is one line naming the file; the messages are part of the CLI's contract
/// (docs/BAD-INPUT.md).
package enum PhotoValidator {
    /// The API attaches up to 4 photos to one post.
    package static let maxPhotos = 4
    /// X documents "Image: 5 MB" for uploads; the API's own refusal of a bigger file says
    /// "File size exceeds 5242880 bytes", so the binary reading (5 × 1024 × 1024) is the
    /// one it applies. A still GIF is an image here: the 15 MB GIF limit is an animated
    /// GIF's, which a post with photos cannot carry.
    package static let maxBytes = 5 * 1024 * 1024
    /// The alt text's limit as the contract gives it ("at most 1,000 characters").
    package static let maxAltLength = 1_000

    /// How alt text is counted against `maxAltLength`. X documents the limit as
    /// characters without saying which; the literal reading is the one JSON Schema gives
    /// an OpenAPI `maxLength` (the docs' form): Unicode code points. A family emoji is
    /// then 7 (its code points and joiners), not 1 (one grapheme) nor 11 (UTF-16 units).
    /// One switch, so another reading is one line away.
    package enum AltTextCounting: Sendable {
        case unicodeScalars, graphemes, utf16

        package func length(of text: String) -> Int {
            switch self {
            case .unicodeScalars: text.unicodeScalars.count
            case .graphemes: text.count
            case .utf16: text.utf16.count
            }
        }
    }

    package static let altTextCounting = AltTextCounting.unicodeScalars

    /// The photo's type, read from its first bytes; nil for anything that is not a JPEG,
    /// PNG, WebP or GIF.
    package static func photoType(of bytes: [UInt8]) -> PhotoType? {
        switch ImageFormat.sniff(bytes) {
        case .jpeg?: .jpeg
        case .png?: .png
        case .webp?: .webp
        case .gif?: .gif
        case nil: nil
        }
    }

    /// Checks one photo and returns its type. `fileName` is what the user typed (it
    /// names the culprit). `fileSize` is the file's size when `bytes` holds only its
    /// first bytes (a file over the limit is not read whole). Throws `.invalidData` (65);
    /// the type is checked first, so a big file that is no image is called that.
    package static func validate(fileName: String, bytes: Data, alt: String?, fileSize: Int? = nil) throws -> PhotoType {
        do {
            return try check(bytes, alt: alt, fileSize: fileSize)
        } catch let error as TwfeedError {
            throw TwfeedError(error.code, "photo \(fileName): \(error.message)")
        }
    }

    /// `validate` without the culprit, for a caller that names it its own way (the
    /// reader's compose page names the part and the photo's slot).
    package static func check(_ bytes: Data, alt: String?, fileSize: Int? = nil) throws -> PhotoType {
        let head = [UInt8](bytes.prefix(12))
        guard let type = photoType(of: head) else {
            throw TwfeedError(.invalidData, "not a JPEG, PNG, WebP or GIF image")
        }
        let size = max(fileSize ?? 0, bytes.count)
        if size > maxBytes {
            throw TwfeedError(.invalidData, "\(size) bytes, over the 5 MB limit (\(maxBytes) bytes)")
        }
        if type == .gif {
            switch GIFFrames.count([UInt8](bytes)) {
            case .damaged, .frames(0):
                throw TwfeedError(.invalidData, "a damaged GIF (its blocks end early or make no sense)")
            case .frames(1):
                break
            case .frames(let frames):
                throw TwfeedError(.invalidData, "an animated GIF (\(frames) frames); only a still GIF can be posted")
            }
        }
        if let alt {
            let length = altTextCounting.length(of: alt)
            if length > maxAltLength {
                throw TwfeedError(.invalidData, "alt text is \(length)/\(maxAltLength) characters")
            }
        }
        return type
    }

    /// More than `maxPhotos` on one post is a usage error (64): `where` names the post
    /// ("" for `post`, "part 2: " for a thread's part).
    package static func checkCount(_ count: Int, where prefix: String = "") throws {
        if count > maxPhotos {
            throw TwfeedError(.usage, "\(prefix)\(count) photos; at most \(maxPhotos) on one post")
        }
    }
}
