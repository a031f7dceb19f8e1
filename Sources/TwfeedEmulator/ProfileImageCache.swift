import Foundation
import Synchronization

/// Small, valid PNG avatars drawn per user (a light disc on a colour taken from the user
/// id), cached once drawn, served with an ETag so a client can revalidate with
/// `If-None-Match` and get a 304.
final class ProfileImageCache: Sendable {
    private let cache = Mutex<[String: [UInt8]]>([:])

    /// The URL the API reports for a user (`profile_image_url`, the `_normal` variant).
    static func url(for user: EmulatedUser, base: String) -> String {
        "\(base)/profile_images/\(user.id)/\(user.imageVersion)_normal.png"
    }

    static func etag(userID: UInt64, version: Int, size: ProfileImageSize) -> String {
        "\"\(userID)-\(version)-\(size.rawValue)\""
    }

    /// The answer to `GET /profile_images/...`: 404 for an unknown user or an outdated
    /// version (as the real host forgets replaced pictures), 304 on a matching ETag.
    func response(for request: HTTPRequest, user: EmulatedUser?, version: Int, size: ProfileImageSize) -> HTTPResponse {
        guard let user, user.imageVersion == version else {
            return .text(404, "Not Found\n")
        }
        let etag = Self.etag(userID: user.id, version: version, size: size)
        let headers: [(name: String, value: String)] = [
            ("Content-Type", "image/png"), ("ETag", etag), ("Cache-Control", "max-age=604800"),
            ("Last-Modified", HTTPResponse.httpDate(user.createdAt)),
        ]
        if let match = request.header("if-none-match"), match.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces) == etag || $0.trimmingCharacters(in: .whitespaces) == "*"
        }) {
            return HTTPResponse(status: 304, headers: headers.filter { $0.name != "Content-Type" })
        }
        let key = "\(user.id)-\(version)-\(size.rawValue)"
        let png = cache.withLock { cache in
            if let png = cache[key] { return png }
            let png = Self.drawAvatar(seed: user.id &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(version), pixels: size.pixels)
            cache[key] = png
            return png
        }
        return HTTPResponse(status: 200, headers: headers, body: png)
    }

    // MARK: Drawing and PNG encoding

    static func drawAvatar(seed: UInt64, pixels: Int) -> [UInt8] {
        let background: [UInt8] = [UInt8(64 + seed % 160), UInt8(64 + (seed >> 8) % 160), UInt8(64 + (seed >> 16) % 160)]
        let foreground = background.map { UInt8(min(255, Int($0) + 80)) }
        var raw: [UInt8] = []
        raw.reserveCapacity(pixels * (pixels * 3 + 1))
        let center = Double(pixels) / 2
        let radius = Double(pixels) * 0.3
        for y in 0..<pixels {
            raw.append(0)  // filter: none
            for x in 0..<pixels {
                let dx = Double(x) + 0.5 - center, dy = Double(y) + 0.5 - center * 0.85
                raw += (dx * dx + dy * dy) < radius * radius ? foreground : background
            }
        }
        return encodePNG(width: pixels, height: pixels, rgbRows: raw)
    }

    /// An 8-bit RGB PNG whose zlib stream uses stored (uncompressed) deflate blocks:
    /// valid for every decoder, and no compression library needed.
    static func encodePNG(width: Int, height: Int, rgbRows raw: [UInt8]) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // depth 8, truecolour, deflate, adaptive filtering, no interlace
        png += chunk("IHDR", header)

        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, raw.count - offset)
            let final: UInt8 = offset + length == raw.count ? 1 : 0
            zlib.append(final)
            zlib += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + length)]
            offset += length
        } while offset < raw.count
        zlib += bigEndian(adler32(raw))
        png += chunk("IDAT", zlib)
        png += chunk("IEND", [])
        return png
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
