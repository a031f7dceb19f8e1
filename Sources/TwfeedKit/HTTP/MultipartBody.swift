import Foundation

/// A `multipart/form-data` body (RFC 7578): what `POST /2/media/upload` takes a photo in.
///
/// The boundary is random and checked against every part's bytes, so a photo that
/// happens to hold it cannot end its own part early; a new one is drawn until none does.
package struct MultipartBody: Sendable {
    package struct Part: Sendable {
        package var name: String
        package var fileName: String?
        package var contentType: String?
        package var bytes: Data

        /// A plain field (`media_category=tweet_image`).
        package static func field(_ name: String, _ value: String) -> Part {
            Part(name: name, fileName: nil, contentType: nil, bytes: Data(value.utf8))
        }

        /// A file: its bytes as they are, with its name and type.
        package static func file(_ name: String, fileName: String, contentType: String, bytes: Data) -> Part {
            Part(name: name, fileName: fileName, contentType: contentType, bytes: bytes)
        }
    }

    package let boundary: String
    package let parts: [Part]

    package init(parts: [Part], boundary: String? = nil) {
        self.parts = parts
        var candidate = boundary ?? Self.randomBoundary()
        while parts.contains(where: { Self.contains($0.bytes, Data(candidate.utf8)) }) { candidate = Self.randomBoundary() }
        self.boundary = candidate
    }

    /// The `Content-Type` header's value.
    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The body's bytes.
    package var bytes: [UInt8] {
        var body: [UInt8] = []
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let fileName = part.fileName { head += "; filename=\"\(Self.quoted(fileName))\"" }
            head += "\r\n"
            if let type = part.contentType { head += "Content-Type: \(type)\r\n" }
            head += "\r\n"
            body += Array(head.utf8)
            body += Array(part.bytes)
            body += Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return body
    }

    /// A name or file name inside quotes: a quote, a backslash or a line break would end
    /// the header, so they become `%22`, `%5C`, `%0D` and `%0A` (as browsers send them).
    static func quoted(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\\": result += "%5C"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func randomBoundary() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return "twfeed-" + String((0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    static func contains(_ haystack: Data, _ needle: Data) -> Bool {
        haystack.range(of: needle) != nil
    }
}
