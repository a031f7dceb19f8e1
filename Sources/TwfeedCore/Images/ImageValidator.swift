import Foundation

/// The image formats the cache keeps, each with the extension its files get.
package enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg = "jpg"
    case png, gif, webp

    /// The media types that announce it.
    package var mediaTypes: [String] {
        switch self {
        case .jpeg: ["image/jpeg", "image/jpg", "image/pjpeg"]
        case .png: ["image/png"]
        case .gif: ["image/gif"]
        case .webp: ["image/webp"]
        }
    }

    /// The extension of its cache files.
    package var fileExtension: String { rawValue }

    /// The format whose magic bytes start `bytes`, if any.
    package static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        return nil
    }
}

/// Decides whether an answer's body is an image the cache may keep: its Content-Type is
/// jpeg, png, gif or webp, and its first bytes say the same. A server that labels HTML
/// or a script as an image, or one format as another, is refused, so nothing a reader
/// opens as an avatar is anything but the picture it claims to be.
package enum ImageValidator {
    /// Why a body was refused. The raw values are the `reason` of `image.rejected`.
    package enum Rejection: String, Sendable, Error, Equatable {
        case contentType = "content_type"
        case magicMismatch = "magic_mismatch"
        case empty
    }

    package static func validate(contentType: String?, body: [UInt8]) -> Result<ImageFormat, Rejection> {
        guard let contentType else { return .failure(.contentType) }
        let mediaType =
            contentType.split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard let declared = ImageFormat.allCases.first(where: { $0.mediaTypes.contains(mediaType) }) else {
            return .failure(.contentType)
        }
        guard !body.isEmpty else { return .failure(.empty) }
        guard ImageFormat.sniff(body) == declared else { return .failure(.magicMismatch) }
        return .success(declared)
    }
}
