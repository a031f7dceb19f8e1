import Foundation
import Glibc
import TwfeedCore

/// A Unix datagram socket through which `twfeed post` tells a running daemon that a
/// status was queued, so it leaves at once rather than at the next timer tick. If no
/// daemon listens, the datagram is simply lost: the timer still flushes the queue.
package final class WakeSocket: @unchecked Sendable {
    private let path: String
    private let fd: Int32
    private var thread: Thread?

    /// `$RUNTIME_DIRECTORY/wake.sock` under systemd (an account's `/run/twfeed/NAME`
    /// from a shell), else beside the database; when
    /// that path is too long for a Unix socket (107 bytes), an abstract name made from
    /// the database path, which `post` computes the same way. (Anyone on the host may
    /// send to an abstract name: harmless, a datagram only makes the flusher look.)
    package static func path(config: TwfeedConfig, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let path: String
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first.map(String.init) ?? config.runtimeDirectory {
            path = "\(runtime)/wake.sock"
        } else {
            path = config.storage.database + ".wake"
        }
        guard path.utf8.count > maxPathBytes else { return path }
        return "@twfeed-wake-" + SHA256.hex(SHA256.hash(Array(path.utf8))).prefix(32)
    }

    /// `sun_path` holds 108 bytes including the terminating zero.
    static let maxPathBytes = 107

    /// Binds the socket and rings the doorbells for every datagram received: the
    /// outbox's (`twfeed post`) and the feeds' (`twfeed fill`); each looks whether it
    /// has work and goes back to sleep if not.
    package init(listeningAt path: String, doorbell: Doorbell, also others: [Doorbell] = []) throws {
        self.path = path
        if !path.hasPrefix("@") { unlink(path) }
        let fd = UnixDatagram.socket()
        self.fd = fd
        guard fd >= 0 else { throw TwfeedError(.io, "\(path): cannot create the wake socket: \(String(cString: strerror(errno)))") }
        let bound: Bool
        do {
            bound = try UnixDatagram.bind(fd, to: path)
        } catch {
            Glibc.close(fd)
            throw error
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw TwfeedError(.io, "\(path): cannot bind the wake socket: \(reason)")
        }
        if !path.hasPrefix("@") { chmod(path, 0o660) }
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let received = recv(fd, &buffer, buffer.count, 0)
                if received < 0 && errno == EINTR { continue }
                if received <= 0 { return }  // closed by shutdown()
                if buffer[0] == UInt8(ascii: "q") { return }
                doorbell.ring()
                for other in others { other.ring() }
            }
        }
        thread.name = "twfeed-wake"
        thread.start()
        self.thread = thread
    }

    /// Stops listening and removes the socket file.
    package func close() {
        _ = Self.send("q", to: path)
        shutdown(fd, Int32(SHUT_RDWR))
        if !path.hasPrefix("@") { unlink(path) }
    }

    deinit { Glibc.close(fd) }

    /// Sends one datagram; false when nobody listens.
    @discardableResult
    package static func send(_ message: String = "w", to path: String) -> Bool {
        let fd = UnixDatagram.socket()
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        return UnixDatagram.send(message, from: fd, to: path, flags: Int32(MSG_DONTWAIT))
    }
}
