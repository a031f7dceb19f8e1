import Foundation
import Glibc
import Hummingbird
import NIOCore

/// A `multipart/form-data` body (RFC 7578), as a browser sends a form that carries
/// files: the compose page's photos. Text fields are read as UTF-8 (the page is, and a
/// browser sends a form in its page's encoding); a file keeps its bytes as sent and
/// the last component of the name the browser gave it.
///
/// Written here rather than taken from a package: the reader needs the one shape a
/// browser sends, and the mirrors hold no multipart parser for Hummingbird 2.
struct MultipartForm {
    struct File: Equatable {
        /// The name's last path component (an old browser sends a whole path), without
        /// control characters; the page and the upload show it.
        var fileName: String
        var bytes: Data
    }

    /// The first value of each text field, as `FormQuery` keeps them.
    private(set) var fields: [String: String] = [:]
    /// Every file part in the body's order, empty ones included (a file input left
    /// empty sends a part with no name and no bytes).
    private(set) var files: [(name: String, file: File)] = []

    /// The boundary of `multipart/form-data; boundary=...`, nil for any other type.
    static func boundary(ofContentType type: String?) -> String? {
        guard let type else { return nil }
        let parameters = type.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parameters.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            // RFC 2046: 1 to 70 characters.
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    /// Reads the body; a body that is not the multipart its type says is 400.
    init(_ body: ByteBuffer, boundary: String) throws {
        var failure: String?
        body.withUnsafeReadableBytes { raw in
            do { try parse(raw, boundary: Array(boundary.utf8)) } catch let error as HTTPError { failure = error.body } catch {}
        }
        if let failure { throw HTTPError(.badRequest, message: failure) }
    }

    private mutating func parse(_ body: UnsafeRawBufferPointer, boundary: [UInt8]) throws {
        let dashes = Array("--".utf8) + boundary
        let delimiter = Array("\r\n".utf8) + dashes
        let bad = HTTPError(.badRequest, message: "the form's multipart body is malformed")
        // The first boundary may open the body or follow a preamble's line break.
        var index: Int
        if Self.starts(body, with: dashes, at: 0) {
            index = dashes.count
        } else if let found = Self.find(delimiter, in: body, from: 0) {
            index = found + delimiter.count
        } else {
            throw bad
        }
        while true {
            // After a boundary: `--` ends the body, else a line break opens a part.
            if Self.starts(body, with: Array("--".utf8), at: index) { return }
            while index < body.count, body[index] == UInt8(ascii: " ") || body[index] == UInt8(ascii: "\t") { index += 1 }
            guard Self.starts(body, with: Array("\r\n".utf8), at: index) else { throw bad }
            index += 2
            guard let headersEnd = Self.find(Array("\r\n\r\n".utf8), in: body, from: index) else { throw bad }
            let headers = String(decoding: UnsafeRawBufferPointer(rebasing: body[index..<headersEnd]), as: UTF8.self)
            let contentStart = headersEnd + 4
            guard let contentEnd = Self.find(delimiter, in: body, from: contentStart) else { throw bad }
            let content = UnsafeRawBufferPointer(rebasing: body[contentStart..<contentEnd])
            try add(headers: headers, content: content)
            index = contentEnd + delimiter.count
        }
    }

    private mutating func add(headers: String, content: UnsafeRawBufferPointer) throws {
        var name: String?
        var fileName: String?
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            let parameters = Self.parameters(String(pair[1]))
            name = parameters["name"]
            fileName = parameters["filename"]
        }
        guard let name else { throw HTTPError(.badRequest, message: "the form's multipart body has a part without a name") }
        if let fileName {
            files.append((name, File(fileName: Self.baseName(fileName), bytes: Data(content))))
        } else if fields[name] == nil {
            fields[name] = String(decoding: content, as: UTF8.self)
        }
    }

    /// `form-data; name="a"; filename="b.png"` as its parameters (quoted or not; a
    /// browser writes a `"` in a name as `%22`, an older one as `\"`).
    static func parameters(_ value: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(value)
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].split(separator: ";").last?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            rest = rest[rest.index(after: equals)...]
            var text = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var escaped = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaped {
                        text.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        break
                    } else {
                        text.append(character)
                    }
                }
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                text = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            if result[key] == nil { result[key] = text }
        }
        return result
    }

    /// The last path component, without control characters.
    static func baseName(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        return String(String.UnicodeScalarView(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }

    static func starts(_ body: UnsafeRawBufferPointer, with prefix: [UInt8], at index: Int) -> Bool {
        guard index >= 0, index + prefix.count <= body.count else { return false }
        for (offset, byte) in prefix.enumerated() where body[index + offset] != byte { return false }
        return true
    }

    /// Where `needle` first occurs at or after `start`: `memchr` finds each candidate
    /// first byte at the speed of memory, `memcmp` the rest (a photo's megabytes are
    /// searched for the boundary; Glibc's `memmem` is not visible to Swift).
    static func find(_ needle: [UInt8], in body: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = body.baseAddress, let first = needle.first, start <= body.count else { return nil }
        return needle.withUnsafeBytes { pattern -> Int? in
            var index = start
            while body.count - index >= needle.count {
                guard let found = memchr(base + index, Int32(first), body.count - index - needle.count + 1) else { return nil }
                let at = base.distance(to: UnsafeRawPointer(found))
                if memcmp(base + at, pattern.baseAddress!, needle.count) == 0 { return at }
                index = at + 1
            }
            return nil
        }
    }
}
