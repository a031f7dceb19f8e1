import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `multipart/form-data` body (RFC 7578) read whole: its parts by name, each with its
/// bytes, file name and Content-Type. A part sent with `Content-Transfer-Encoding:
/// base64` (as X's upload guide allows) is decoded. A body that does not end with the
/// closing delimiter (a truncated upload) is no form at all: the emulator never takes
/// part of a file for the whole.
struct MultipartForm {
    struct Part {
        let name: String
        let fileName: String?
        let contentType: String?
        let bytes: [UInt8]

        /// The part as text (a form field such as `media_category`).
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    let parts: [Part]

    func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// The boundary of a `multipart/form-data` Content-Type, or nil for any other type.
    static func boundary(contentType: String?) -> String? {
        guard let contentType else { return nil }
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            // RFC 2046: 1 to 70 characters.
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    /// Parses `body`; nil when it is not a whole form with that boundary.
    init?(_ body: [UInt8], boundary: String) {
        let delimiter = Array("--\(boundary)".utf8)
        let separator = Array("\r\n--\(boundary)".utf8)
        guard var at = Self.find(delimiter, in: body, from: 0) else { return nil }
        at += delimiter.count
        var parts: [Part] = []
        while true {
            // After a delimiter: `--` closes the form, CRLF starts a part.
            guard at + 2 <= body.count else { return nil }
            if body[at] == UInt8(ascii: "-"), body[at + 1] == UInt8(ascii: "-") { break }
            guard body[at] == 13, body[at + 1] == 10 else { return nil }
            at += 2
            guard let headEnd = Self.find([13, 10, 13, 10], in: body, from: at) else { return nil }
            let head = String(decoding: body[at..<headEnd], as: UTF8.self)
            let contentStart = headEnd + 4
            guard let contentEnd = Self.find(separator, in: body, from: contentStart) else { return nil }
            guard let part = Self.part(head: head, content: Array(body[contentStart..<contentEnd])) else { return nil }
            parts.append(part)
            at = contentEnd + separator.count
        }
        self.parts = parts
    }

    private static func part(head: String, content: [UInt8]) -> Part? {
        var name: String?
        var fileName: String?
        var contentType: String?
        var base64 = false
        for line in head.components(separatedBy: "\r\n") where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch field {
            case "content-disposition":
                name = parameter("name", in: value)
                fileName = parameter("filename", in: value)
            case "content-type":
                contentType = value
            case "content-transfer-encoding":
                base64 = value.lowercased() == "base64"
            default:
                break
            }
        }
        guard let name else { return nil }
        var bytes = content
        if base64 {
            guard let decoded = Data(base64Encoded: Data(content), options: .ignoreUnknownCharacters) else { return nil }
            bytes = Array(decoded)
        }
        return Part(name: name, fileName: fileName, contentType: contentType, bytes: bytes)
    }

    /// A `name="value"` (or unquoted) parameter of a Content-Disposition.
    private static func parameter(_ key: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == key else { continue }
            let text = pair[1]
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { return String(text.dropFirst().dropLast()) }
            return text
        }
        return nil
    }

    /// Where `needle` first occurs in `haystack` at or after `start` (memchr for its first
    /// byte, memcmp for the rest: an upload is megabytes, searched once per part).
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard start >= 0, !needle.isEmpty, haystack.count - start >= needle.count else { return nil }
        return haystack.withUnsafeBytes { hay -> Int? in
            needle.withUnsafeBytes { pin -> Int? in
                guard let base = hay.baseAddress, let first = pin.baseAddress else { return nil }
                var at = start
                let last = hay.count - pin.count
                while at <= last {
                    guard let found = memchr(base + at, Int32(needle[0]), last - at + 1) else { return nil }
                    let offset = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + offset, first, pin.count) == 0 { return offset }
                    at = offset + 1
                }
                return nil
            }
        }
    }
}
