import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads HTTP/1.1 requests off one connected socket: request line, headers, and a body
/// sized by Content-Length (or chunked). Keeps leftover bytes for the next request on a
/// keep-alive connection.
struct HTTPRequestReader {
    enum Outcome {
        case request(EmulatorRequest)
        /// The peer closed (or the server shut the socket) between requests.
        case closed
        /// Unreadable request: answer this status and close.
        case malformed(Int)
    }

    static let maxHeaderBytes = 64 * 1024
    /// A 5 MB photo is about 7 MB as base64 JSON; room above that, so an oversized photo
    /// (6 MB, base64 or not) gets the upload's own 400, not a 413 from the reader.
    static let maxBodyBytes = 16 * 1024 * 1024

    let fd: Int32
    private var buffer: [UInt8] = []
    private var eof = false

    init(fd: Int32) { self.fd = fd }

    /// Reads the next request. `sendContinue` is called when the client waits for
    /// `100 Continue` before sending its body.
    mutating func next(sendContinue: () -> Void) -> Outcome {
        // Headers.
        var headerEnd: Int?
        var searchFrom = 0
        while headerEnd == nil {
            headerEnd = Self.find([13, 10, 13, 10], in: buffer, from: searchFrom)
            if headerEnd != nil { break }
            searchFrom = max(0, buffer.count - 3)
            if buffer.count > Self.maxHeaderBytes { return .malformed(431) }
            guard fill() else { return buffer.isEmpty ? .closed : .malformed(400) }
        }
        let headEnd = headerEnd!
        let headText = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)

        var lines = headText.components(separatedBy: "\r\n")
        // Tolerate stray blank lines before a request line (RFC 9112 section 2.2).
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard let requestLine = lines.first else { return .malformed(400) }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return .malformed(400) }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return .malformed(400) }
            headers.append(
                (
                    line[..<colon].trimmingCharacters(in: .whitespaces).lowercased(),
                    line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                )
            )
        }
        var request = EmulatorRequest(
            method: String(parts[0]).uppercased(),
            target: String(parts[1]),
            version: String(parts[2]),
            headers: headers,
            body: []
        )

        // Body.
        let chunked = request.header("transfer-encoding")?.lowercased().contains("chunked") == true
        var declared = 0
        if let text = request.header("content-length") {
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else { return .malformed(400) }
            declared = value
        }
        if declared > Self.maxBodyBytes { return .malformed(413) }
        let expectsContinue = request.header("expect")?.lowercased() == "100-continue"
        if expectsContinue && (chunked || declared > 0) && buffer.isEmpty { sendContinue() }
        if chunked {
            guard let body = readChunkedBody() else { return .malformed(400) }
            request.body = body
        } else if declared > 0 {
            while buffer.count < declared {
                guard fill() else { return .closed }
            }
            request.body = Array(buffer[0..<declared])
            buffer.removeFirst(declared)
        }
        return .request(request)
    }

    private mutating func readChunkedBody() -> [UInt8]? {
        var body: [UInt8] = []
        while true {
            guard let line = readLine(), let size = Int(line.split(separator: ";")[0].trimmingCharacters(in: .whitespaces), radix: 16),
                size >= 0
            else { return nil }
            if size == 0 {
                // Trailer fields, up to the empty line.
                while let trailer = readLine() { if trailer.isEmpty { return body } }
                return nil
            }
            guard body.count + size <= Self.maxBodyBytes else { return nil }
            while buffer.count < size + 2 {
                guard fill() else { return nil }
            }
            body += buffer[0..<size]
            buffer.removeFirst(size + 2)
        }
    }

    private mutating func readLine() -> String? {
        while true {
            if let end = Self.find([13, 10], in: buffer, from: 0) {
                let line = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                return line
            }
            if buffer.count > Self.maxHeaderBytes { return nil }
            guard fill() else { return nil }
        }
    }

    /// Reads more bytes; false at end of stream or on error (including the server's own
    /// `shutdown` during `stop()`, and the idle timeout).
    private mutating func fill() -> Bool {
        if eof { return false }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[0..<count]
                return true
            }
            if count < 0 && errno == EINTR { continue }
            eof = true
            return false
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0] {
                var match = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    match = false
                    break
                }
                if match { return index }
            }
            index += 1
        }
        return nil
    }
}
