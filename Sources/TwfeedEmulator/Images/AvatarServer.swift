import Foundation
import Synchronization

/// The emulator's avatar server (the real image host): small, valid PNG avatars drawn per user (a light disc on a colour taken from the user
/// id), cached once drawn, served with an ETag and a Last-Modified so a client can
/// revalidate with `If-None-Match` or `If-Modified-Since` and get a 304.
///
/// Tests can change a user's picture behind the same URL (`changeBytes`, `setBytes`: a
/// new ETag and Last-Modified) and have bad answers served on demand (`BadImage`), per
/// user or per path.
final class AvatarServer: Sendable {
    private let cache = Mutex<[String: [UInt8]]>([:])

    /// A picture replaced behind the same URL.
    private struct Revision {
        var number: Int
        var lastModified: Date
        /// Exact bytes set by a test (served for every size), else a drawing.
        var custom: (bytes: [UInt8], contentType: String)?
    }

    private struct BadRule {
        var userID: UInt64?
        var pathContains: String?
        var image: BadImage
    }

    private struct Controls {
        var revisions: [UInt64: Revision] = [:]
        var bad: [BadRule] = []
    }

    private let controls = Mutex(Controls())
    /// Image body bytes written to sockets, every answer counted.
    let bodyBytesSent = Atomic<Int>(0)

    /// The URL the API reports for a user (`profile_image_url`, the `_normal` variant).
    static func url(for user: EmulatedUser, base: String) -> String {
        "\(base)/profile_images/\(user.id)/\(user.imageVersion)_normal.png"
    }

    static func etag(userID: UInt64, version: Int, size: ProfileImageSize, revision: Int = 0) -> String {
        revision == 0 ? "\"\(userID)-\(version)-\(size.rawValue)\"" : "\"\(userID)-\(version)-\(size.rawValue)-r\(revision)\""
    }

    // MARK: Controls

    /// New bytes behind the user's current URL: a new drawing, or `bytes` when given.
    func changeBytes(userID: UInt64, custom: (bytes: [UInt8], contentType: String)? = nil, now: Date) {
        controls.withLock { controls in
            var revision = controls.revisions[userID] ?? Revision(number: 0, lastModified: .distantPast)
            revision.number += 1
            // Whole seconds, as HTTP dates have; always later than the previous one.
            revision.lastModified = max(
                Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)),
                revision.lastModified.addingTimeInterval(1)
            )
            revision.custom = custom
            controls.revisions[userID] = revision
        }
    }

    func serveBad(_ image: BadImage, userID: UInt64?, pathContains: String?) {
        controls.withLock { $0.bad.append(BadRule(userID: userID, pathContains: pathContains, image: image)) }
    }

    func clearBad() {
        controls.withLock { $0.bad.removeAll() }
    }

    /// The bytes a user's picture has now at `size` (what a client should have stored).
    func currentBytes(for user: EmulatedUser, size: ProfileImageSize) -> [UInt8] {
        let revision = controls.withLock { $0.revisions[user.id] }
        if let custom = revision?.custom { return custom.bytes }
        return drawing(user: user, version: user.imageVersion, size: size, revision: revision?.number ?? 0)
    }

    // MARK: Answering

    /// The answer to `GET /profile_images/...`: 404 for an unknown user or an outdated
    /// version (as the real host forgets replaced pictures), 304 on a matching ETag or an
    /// If-Modified-Since not older than the picture, a bad answer when one is asked for.
    func response(for request: EmulatorRequest, user: EmulatedUser?, version: Int, size: ProfileImageSize) -> EmulatorResponse {
        var response = answer(request, user: user, version: version, size: size)
        response.onBodySent = { [self] in _ = bodyBytesSent.add($0, ordering: .relaxed) }
        return response
    }

    private func answer(_ request: EmulatorRequest, user: EmulatedUser?, version: Int, size: ProfileImageSize) -> EmulatorResponse {
        guard let user, user.imageVersion == version else {
            return .text(404, "Not Found\n")
        }
        let (revision, bad) = controls.withLock { controls in
            (
                controls.revisions[user.id],
                controls.bad.last { rule in
                    (rule.userID.map { $0 == user.id } ?? true) && (rule.pathContains.map { request.path.contains($0) } ?? true)
                }?.image
            )
        }
        if let bad, let response = Self.badAnswer(bad, request: request) { return response }

        let etag = Self.etag(userID: user.id, version: version, size: size, revision: revision?.number ?? 0)
        let lastModified = revision?.lastModified ?? user.createdAt
        let contentType = revision?.custom?.contentType ?? "image/png"
        return Self.picture(request, etag: etag, lastModified: lastModified, contentType: contentType, slow: bad) {
            currentBytes(for: user, size: size)
        }
    }

    /// A picture's answer with its validators: 304 without a body when the request's
    /// match (If-None-Match wins over If-Modified-Since, RFC 9110 13.2.2), else the
    /// bytes, stalled mid-body under a `slow` bad answer.
    static func picture(
        _ request: EmulatorRequest,
        etag: String,
        lastModified: Date,
        contentType: String,
        slow bad: BadImage?,
        body: () -> [UInt8]
    ) -> EmulatorResponse {
        let headers: [(name: String, value: String)] = [
            ("Content-Type", contentType), ("ETag", etag), ("Cache-Control", "max-age=604800"),
            ("Last-Modified", EmulatorResponse.httpDate(lastModified)),
        ]
        let notModified: Bool
        if let match = request.header("if-none-match") {
            notModified = match.split(separator: ",").contains {
                $0.trimmingCharacters(in: .whitespaces) == etag || $0.trimmingCharacters(in: .whitespaces) == "*"
            }
        } else if let since = request.header("if-modified-since").flatMap(EmulatorResponse.parseHTTPDate) {
            notModified = lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        } else {
            notModified = false
        }
        if notModified {
            return EmulatorResponse(status: 304, headers: headers.filter { $0.name != "Content-Type" })
        }
        var response = EmulatorResponse(status: 200, headers: headers, body: body())
        if case .slow(let seconds) = bad { response.delivery = .stallMidBody(seconds: seconds) }
        return response
    }

    // MARK: Media pictures

    /// Drawn media pictures by id; bounded, since a long demo fetches many.
    private let mediaCache = Mutex<[UInt64: [UInt8]]>([:])

    /// The answer to a media picture's path (`EmulatedMedia.path`): the picture at the
    /// media's size (a photo, or a video's or GIF's still), with an ETag and a
    /// Last-Modified for revalidation (304), or a bad answer of a `serveBad` rule for a
    /// path (user rules are about profile pictures); 404 for an unknown id or a path not
    /// the media's own. An uploaded photo's picture is its bytes as uploaded, with their
    /// Content-Type. The image host keeps serving a deleted post's media, as pbs.twimg.com
    /// does for a while.
    func mediaResponse(for request: EmulatorRequest, media: EmulatedMedia?, upload: UploadedMedia? = nil) -> EmulatorResponse {
        var response = mediaAnswer(request, media: media, upload: upload)
        response.onBodySent = { [self] in _ = bodyBytesSent.add($0, ordering: .relaxed) }
        return response
    }

    private func mediaAnswer(_ request: EmulatorRequest, media: EmulatedMedia?, upload: UploadedMedia?) -> EmulatorResponse {
        guard let media, request.path == media.path else { return .text(404, "Not Found\n") }
        let bad = controls.withLock { controls in
            controls.bad.last { rule in rule.userID == nil && (rule.pathContains.map { request.path.contains($0) } ?? false) }?.image
        }
        if let bad, let response = Self.badAnswer(bad, request: request) { return response }
        let etag = "\"m\(media.id)\""
        if let upload, let bytes = upload.bytes {
            let uploaded = Date(timeIntervalSince1970: upload.uploadedAt.timeIntervalSince1970.rounded(.down))
            return Self.picture(request, etag: etag, lastModified: uploaded, contentType: upload.format.mimeType, slow: bad) { bytes }
        }
        let lastModified = Date(timeIntervalSince1970: 1_700_000_000)
        return Self.picture(request, etag: etag, lastModified: lastModified, contentType: "image/png", slow: bad) { mediaBytes(media) }
    }

    /// The picture of `media`: a PNG of its width and height.
    func mediaBytes(_ media: EmulatedMedia) -> [UInt8] {
        if let png = mediaCache.withLock({ $0[media.id] }) { return png }
        let png = Self.drawPicture(seed: media.id &* 0x9E37_79B9_7F4A_7C15, width: media.width, height: media.height)
        mediaCache.withLock { cache in
            if cache.count >= 64 { cache.removeAll() }
            cache[media.id] = png
        }
        return png
    }

    /// A two-colour landscape (a sun over a hill) as a 1-bit palette PNG: a valid picture
    /// of any size in a few kilobytes per hundred thousand pixels, without compression.
    static func drawPicture(seed: UInt64, width: Int, height: Int) -> [UInt8] {
        let sky: [UInt8] = [UInt8(96 + seed % 128), UInt8(96 + (seed >> 8) % 128), UInt8(128 + (seed >> 16) % 128)]
        let land: [UInt8] = [UInt8(32 + (seed >> 24) % 96), UInt8(64 + (seed >> 32) % 128), UInt8(32 + (seed >> 40) % 64)]
        let rowBytes = (width + 7) / 8
        var raw = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        let sunX = Double(width) * (0.2 + Double(seed % 60) / 100)
        let sunY = Double(height) * 0.3
        let radius = Double(min(width, height)) * 0.12
        let phase = Double(seed % 7)
        let span = Double(max(width, 1))
        let level = Double(height)
        let hills: [Double] = (0..<width).map { (x: Int) -> Double in
            let angle: Double = Double(x) / span * 6.28 + phase
            return level * (0.65 + 0.12 * sin(angle))
        }
        for y in 0..<height {
            let row = y * (rowBytes + 1)  // raw[row] is the filter byte: none
            let dy = Double(y) - sunY
            for x in 0..<width {
                let dx = Double(x) - sunX
                if Double(y) > hills[x] || dx * dx + dy * dy < radius * radius {
                    raw[row + 1 + x / 8] |= 0x80 >> UInt8(x % 8)
                }
            }
        }
        return encodePNG(width: width, height: height, rows: raw, palette: sky + land)
    }

    private func drawing(user: EmulatedUser, version: Int, size: ProfileImageSize, revision: Int) -> [UInt8] {
        let key = "\(user.id)-\(version)-\(size.rawValue)-\(revision)"
        return cache.withLock { cache in
            if let png = cache[key] { return png }
            let seed = user.id &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(version) ^ (UInt64(revision) << 32)
            let png = Self.drawAvatar(seed: seed, pixels: size.pixels)
            cache[key] = png
            return png
        }
    }

    /// The answer of a bad image; nil for `.slow`, which is the real image delivered slowly.
    private static func badAnswer(_ bad: BadImage, request: EmulatorRequest) -> EmulatorResponse? {
        let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        switch bad {
        case .wrongType:
            return .text(
                200,
                "<html><body><script>alert(1)</script>not an image</body></html>\n",
                contentType: "text/html; charset=utf-8"
            )
        case .mismatchedType:
            return EmulatorResponse(status: 200, headers: [("Content-Type", "image/png")], body: tinyGIF)
        case .oversize:
            return EmulatorResponse(status: 200, headers: [("Content-Type", "image/png")], body: oversizeBody)
        case .oversizeUnannounced:
            var response = EmulatorResponse(status: 200, headers: [("Content-Type", "image/png")], body: pngMagic)
            response.delivery = .unsized(totalBytes: 50 << 20)
            return response
        case .redirectDisallowed:
            return EmulatorResponse(
                status: 302,
                headers: [
                    ("Location", "http://169.254.169.254/latest/meta-data/iam/security-credentials/"),
                    ("Content-Type", "text/plain"),
                ],
                body: Array("Found\n".utf8)
            )
        case .redirectLoop:
            let host = request.header("host") ?? "127.0.0.1"
            return EmulatorResponse(
                status: 302,
                headers: [("Location", "http://\(host)\(request.target)"), ("Content-Type", "text/plain")],
                body: Array("Found\n".utf8)
            )
        case .slow:
            return nil
        }
    }

    /// A 1×1 GIF.
    static let tinyGIF: [UInt8] =
        Array("GIF89a".utf8) + [
            0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x21, 0xF9, 0x04, 0x01, 0x00,
            0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B,
        ]

    /// 6 MB starting like a PNG.
    static let oversizeBody: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: (6 << 20) - 8)

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
                let dx = Double(x) + 0.5 - center
                let dy = Double(y) + 0.5 - center * 0.85
                raw += (dx * dx + dy * dy) < radius * radius ? foreground : background
            }
        }
        return encodePNG(width: pixels, height: pixels, rgbRows: raw)
    }

    /// An 8-bit RGB PNG whose zlib stream uses stored (uncompressed) deflate blocks:
    /// valid for every decoder, and no compression library needed.
    static func encodePNG(width: Int, height: Int, rgbRows raw: [UInt8]) -> [UInt8] {
        encodePNG(width: width, height: height, rows: raw, palette: nil)
    }

    /// A PNG of filtered `rows`: 8-bit RGB, or with a `palette` of two RGB colours a
    /// 1-bit indexed one (eight pixels a byte).
    static func encodePNG(width: Int, height: Int, rows raw: [UInt8], palette: [UInt8]?) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        // Depth 8 truecolour, or depth 1 indexed; deflate, adaptive filtering, no interlace.
        header += palette == nil ? [8, 2, 0, 0, 0] : [1, 3, 0, 0, 0]
        png += chunk("IHDR", header)
        if let palette { png += chunk("PLTE", palette) }

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
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
