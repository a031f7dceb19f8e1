import Foundation
import Glibc
import Synchronization

/// A plain HTTP/1.1 server on 127.0.0.1 that answers every request with one fixed
/// answer and counts the connections it accepted: for tests that want to know whether
/// a client connected at all (the image fetchers' address wall), not what it asked.
package final class LoopbackHTTPServer: Sendable {
    package let port: Int
    private let fd: Int32
    private let accepted = Count()

    /// Listens at once; every answer is `status` with `body` as `contentType`, and `location`
    /// when given (a redirect).
    package init(status: Int = 200, location: String? = nil, body: [UInt8] = Array("ok".utf8), contentType: String = "text/plain") throws {
        let socket = try LoopbackSocket(listening: true)
        fd = socket.fd
        port = socket.port
        let redirect = location.map { "Location: \($0)\r\n" } ?? ""
        let head =
            "HTTP/1.1 \(status) Answer\r\n\(redirect)Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let answer = Array(head.utf8) + body
        let (fd, accepted) = (fd, accepted)
        let thread = Thread {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }  // closed by `stop()`
                accepted.value.add(1, ordering: .sequentiallyConsistent)
                var request: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !request.ends(with: Array("\r\n\r\n".utf8)) {
                    let count = read(client, &buffer, buffer.count)
                    guard count > 0 else { break }
                    request += buffer.prefix(count)
                }
                _ = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
        }
        thread.start()
    }

    /// The connections accepted so far.
    package var connections: Int { accepted.value.load(ordering: .sequentiallyConsistent) }

    package var url: String { "http://127.0.0.1:\(port)" }

    private final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Stops listening (the accept loop ends).
    package func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
