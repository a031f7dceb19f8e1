import Foundation
import Glibc
import TwfeedCore

/// A bare HTTP/1.1 client over a TCP socket, for tests of the web reader: it sends the
/// request line and headers exactly as written (libcurl would squash `/../` and set its
/// own `Host`), so a test can send a traversal path, a foreign `Host` or a `POST`.
package enum RawHTTP {
    package struct Response: Sendable {
        package var status: Int
        /// Header names in lower case.
        package var headers: [String: String]
        package var body: [UInt8]
        package var text: String { String(decoding: body, as: UTF8.self) }

        package init(status: Int, headers: [String: String], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    /// The reader's secret, sent as `Authorization: Bearer` by every request of a task
    /// that sets it (and names no `Authorization` of its own): the reader's tests of
    /// pages and feeds run signed in, its access tests run without.
    @TaskLocal package static var bearer: String?

    /// `GET path` (or another method) on 127.0.0.1:port; `Host` defaults to the address.
    /// The blocking socket work runs on a thread of its own, never on the cooperative
    /// pool, where the server under test answers (two cores: two blocked pool threads
    /// would starve it).
    package static func request(
        port: Int,
        _ path: String,
        method: String = "GET",
        host: String? = nil,
        headers: [String: String] = [:],
        body: String = ""
    ) async throws -> Response {
        var headers = headers
        if let bearer, !headers.keys.contains(where: { $0.lowercased() == "authorization" }) {
            headers["Authorization"] = "Bearer \(bearer)"
        }
        return try await withCheckedThrowingContinuation { [headers] continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try requestBlocking(port: port, path, method: method, host: host, headers: headers, body: body)
                    }
                )
            }
        }
    }

    static func requestBlocking(
        port: Int,
        _ path: String,
        method: String,
        host: String?,
        headers: [String: String],
        body: String
    ) throws -> Response {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")", "Connection: close"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
        if !body.isEmpty || method == "POST" { lines.append("Content-Length: \(body.utf8.count)") }
        let raw = Array((lines.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8)
        return try parse(exchange(port: port, raw, method: method), method: method)
    }

    package static func exchange(port: Int, _ request: [UInt8], method: String) throws -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to port \(port): errno \(errno)") }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += count
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw Failure(description: "recv: errno \(errno) after \(answer.count) bytes") }
            answer += buffer[..<count]
            if isComplete(answer, method: method) { break }
        }
        return answer
    }

    /// Whether the whole answer is in: its headers and then `Content-Length` bytes, or
    /// the last chunk (the server may keep the connection open a while after it).
    static func isComplete(_ raw: [UInt8], method: String) -> Bool {
        guard let end = headerEnd(raw) else { return false }
        let head = String(decoding: raw[..<end], as: UTF8.self).lowercased()
        if method == "HEAD" { return true }
        if let line = head.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        {
            return raw.count - (end + 4) >= length
        }
        if head.contains("transfer-encoding: chunked") {
            return raw.count >= end + 9 && Array(raw.suffix(5)) == Array("0\r\n\r\n".utf8)
        }
        return false
    }

    static func headerEnd(_ raw: [UInt8]) -> Int? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        return raw.count < 4 ? nil : (0...raw.count - 4).first(where: { Array(raw[$0..<$0 + 4]) == separator })
    }

    package static func parse(_ raw: [UInt8], method: String) throws -> Response {
        guard let end = headerEnd(raw) else {
            throw Failure(description: "no header end in \(raw.count) bytes")
        }
        let head = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(head[0])") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(raw[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = try dechunk(body) }
        return Response(status: status, headers: headers, body: method == "HEAD" ? [] : body)
    }

    static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = (index..<bytes.count - 1).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
                let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16)
            else { throw Failure(description: "bad chunk") }
            if size == 0 { break }
            out += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
        }
        return out
    }
}
