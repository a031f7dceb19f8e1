import Foundation
import Testing
import TwfeedEmulator

/// Photo files for the upload tests, built here byte by byte (not by the emulator's own
/// code): a header that says the type and size, then `filler` bytes unique to the photo,
/// so two photos never share a SHA-256 and byte identity means something.
enum TestPhoto {
    static func png(width: Int, height: Int, filler: Int = 2_000) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        bytes += bigEndian32(width) + bigEndian32(height) + [8, 2, 0, 0, 0] + [0, 0, 0, 0]
        return bytes + noise(filler)
    }

    static func jpeg(width: Int, height: Int, filler: Int = 2_000) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08] + bigEndian16(height) + bigEndian16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return bytes + noise(filler) + [0xFF, 0xD9]
    }

    static func gif(width: Int, height: Int, filler: Int = 500) -> [UInt8] {
        Array("GIF89a".utf8) + [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)] + noise(filler)
    }

    static func webp(width: Int, height: Int, filler: Int = 1_000) -> [UInt8] {
        let body: [UInt8] = Array("WEBP".utf8) + Array("VP8X".utf8) + [10, 0, 0, 0] + [0, 0, 0, 0]
            + littleEndian24(width - 1) + littleEndian24(height - 1) + noise(filler)
        return Array("RIFF".utf8) + [UInt8(body.count & 0xFF), UInt8((body.count >> 8) & 0xFF), UInt8(body.count >> 16), 0] + body
    }

    /// `count` bytes no other call returns (eight at a time: megabytes are asked for).
    static func noise(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < count {
                var word = generator.next()
                let length = min(8, count - offset)
                withUnsafeBytes(of: &word) { buffer.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: length) }
                offset += length
            }
        }
        return bytes
    }

    private static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func bigEndian16(_ value: Int) -> [UInt8] { [UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }

    private static func littleEndian24(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF)]
    }
}

/// A `multipart/form-data` body as twfeed sends an upload: the `media` part with a file
/// name and type, then the `media_category` field.
func multipartUpload(_ bytes: [UInt8], category: String? = "tweet_image", type: String = "image/png",
                     boundary: String = "twfeed-\(UUID().uuidString)", base64: Bool = false) -> RawBody {
    var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"media\"; filename=\"photo\"\r\nContent-Type: \(type)\r\n".utf8)
    if base64 {
        body += Array("Content-Transfer-Encoding: base64\r\n\r\n".utf8) + Array(Data(bytes).base64EncodedString(options: .lineLength76Characters).utf8)
    } else {
        body += Array("\r\n".utf8) + bytes
    }
    if let category {
        body += Array("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"media_category\"\r\n\r\n\(category)".utf8)
    }
    body += Array("\r\n--\(boundary)--\r\n".utf8)
    return RawBody(bytes: body, contentType: "multipart/form-data; boundary=\(boundary)")
}

/// The upload as JSON with base64.
func jsonUpload(_ bytes: [UInt8], category: String = "tweet_image", type: String? = nil) -> String {
    let typeMember = type.map { #","media_type":"\#($0)""# } ?? ""
    return #"{"media":"\#(Data(bytes).base64EncodedString())","media_category":"\#(category)"\#(typeMember)}"#
}

extension TestClient {
    /// Uploads `bytes` as multipart and returns the media id, requiring a 200.
    func upload(_ bytes: [UInt8], alt: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let response = try send("POST", "/2/media/upload", raw: multipartUpload(bytes), sourceLocation: sourceLocation)
        #expect(response.status == 200, "\(response.text)", sourceLocation: sourceLocation)
        let id = try #require(response.object[path: "data", "id"] as? String, sourceLocation: sourceLocation)
        if let alt {
            let described = try send("POST", "/2/media/metadata", json: metadataJSON(id, alt: alt), sourceLocation: sourceLocation)
            #expect(described.status == 200, "\(described.text)", sourceLocation: sourceLocation)
        }
        return id
    }

    /// Posts `text` with `mediaIDs` (v2) and returns the answer.
    func post(_ text: String?, mediaIDs: [String], replyTo: String? = nil) throws -> TestResponse {
        var members: [String] = []
        if let text { members.append(#""text":\#(jsonString(text))"#) }
        members.append(#""media":{"media_ids":[\#(mediaIDs.map(jsonString).joined(separator: ","))]}"#)
        if let replyTo { members.append(#""reply":{"in_reply_to_tweet_id":"\#(replyTo)"}"#) }
        return try send("POST", "/2/tweets", json: "{" + members.joined(separator: ",") + "}")
    }
}

func metadataJSON(_ id: String, alt: String) -> String {
    #"{"id":"\#(id)","metadata":{"alt_text":{"text":\#(jsonString(alt))}}}"#
}

func jsonString(_ text: String) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed]), as: UTF8.self)
}

/// The v2 fields a client asks for to see a post's photos.
let photoFields: [(String, String)] = [
    ("tweet.fields", "created_at,author_id,attachments"),
    ("expansions", "attachments.media_keys"),
    ("media.fields", "url,alt_text,width,height,type"),
]
