/// The picture formats `POST /2/media/upload` takes for a photo, told by the bytes (the
/// API reads the file, not the name or the declared type): JPEG, PNG, WebP and GIF.
enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, gif

    /// The format the bytes start like, or nil for anything else.
    init?(sniffing bytes: [UInt8]) {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<(offset + magic.count)]) == magic
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The Content-Type the image host serves it with, and the upload's `image_type`.
    var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .gif: "image/gif"
        }
    }

    /// The file extension of its picture path (`/media/ID.jpg`).
    var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .gif: "gif"
        }
    }

    /// The picture's width and height read from its header, or (0, 0) when the header
    /// does not say (a truncated file, an unusual JPEG): the API's size is then unknown,
    /// which a client must tolerate anyway.
    func dimensions(of bytes: [UInt8]) -> (width: Int, height: Int) {
        let size: (Int, Int)? =
            switch self {
            case .png: Self.bigEndian32(bytes, 16).flatMap { w in Self.bigEndian32(bytes, 20).map { (w, $0) } }
            case .gif: Self.littleEndian16(bytes, 6).flatMap { w in Self.littleEndian16(bytes, 8).map { (w, $0) } }
            case .jpeg: Self.jpegSize(bytes)
            case .webp: Self.webpSize(bytes)
            }
        return size ?? (0, 0)
    }

    private static func bigEndian32(_ bytes: [UInt8], _ at: Int) -> Int? {
        guard bytes.count >= at + 4 else { return nil }
        return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }

    private static func bigEndian16(_ bytes: [UInt8], _ at: Int) -> Int? {
        guard bytes.count >= at + 2 else { return nil }
        return Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    private static func littleEndian16(_ bytes: [UInt8], _ at: Int) -> Int? {
        guard bytes.count >= at + 2 else { return nil }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8
    }

    private static func littleEndian24(_ bytes: [UInt8], _ at: Int) -> Int? {
        guard bytes.count >= at + 3 else { return nil }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16
    }

    /// The first start-of-frame segment's size, walking the segments from the top (each
    /// bounded by its length, so a hostile file ends the walk, never loops).
    private static func jpegSize(_ bytes: [UInt8]) -> (Int, Int)? {
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xFF {
                at += 1
                continue
            }
            // Markers without a length: TEM and RST0-7.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                at += 2
                continue
            }
            guard let length = bigEndian16(bytes, at + 2), length >= 2 else { return nil }
            let startOfFrame: Set<UInt8> = [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF]
            if startOfFrame.contains(marker) {
                guard let height = bigEndian16(bytes, at + 5), let width = bigEndian16(bytes, at + 7) else { return nil }
                return (width, height)
            }
            at += 2 + length
        }
        return nil
    }

    /// A WebP's size from its first chunk: lossy `VP8 `, lossless `VP8L` or extended `VP8X`.
    private static func webpSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count >= 30 else { return nil }
        switch String(decoding: bytes[12..<16], as: UTF8.self) {
        case "VP8 ":
            guard let width = littleEndian16(bytes, 26), let height = littleEndian16(bytes, 28) else { return nil }
            return (width & 0x3FFF, height & 0x3FFF)
        case "VP8L":
            guard bytes[20] == 0x2F else { return nil }
            let bits = UInt32(bytes[21]) | UInt32(bytes[22]) << 8 | UInt32(bytes[23]) << 16 | UInt32(bytes[24]) << 24
            return (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard let width = littleEndian24(bytes, 24), let height = littleEndian24(bytes, 27) else { return nil }
            return (width + 1, height + 1)
        default:
            return nil
        }
    }
}
