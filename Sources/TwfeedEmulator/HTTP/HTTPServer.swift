import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on POSIX sockets: one listener thread, one thread per
/// connection, keep-alive, Content-Length responses.
///
/// Written by hand rather than on a server library because the emulator's faults live
/// below HTTP: a reset halfway through a body, a reset instead of an answer, a body
/// shorter than promised. Those need the socket itself.
final class HTTPServer: Sendable {
    typealias Handler = @Sendable (EmulatorRequest) -> EmulatorResponse

    private struct State {
        var listenFD: Int32 = -1
        var wakeRead: Int32 = -1
        var wakeWrite: Int32 = -1
        /// Open client sockets; `stop()` shuts them down. A connection thread removes its
        /// socket and closes it under the same lock, so `stop()` never touches a reused fd.
        var clients: Set<Int32> = []
        var started = false
        var stopped = false
        var port = 0
    }

    /// Idle keep-alive connections are dropped after this long without a request.
    static let idleTimeoutSeconds = 120

    private let state = Mutex(State())
    let lifecycle = ServerLifecycle()
    private let handler: Handler

    init(handler: @escaping Handler) {
        self.handler = handler
    }

    var port: Int { state.withLock { $0.port } }

    /// Binds `host:port` (port 0: ephemeral) and starts accepting; returns the bound port.
    func start(host: String, port: Int) throws -> Int {
        try state.withLock { state in
            guard !state.started else { throw EmulatorError.alreadyStarted }
            let listenFD = try Self.bind(host: host, port: port)
            var pipeFDs: [Int32] = [-1, -1]
            guard pipe(&pipeFDs) == 0 else {
                let code = errno
                close(listenFD)
                throw EmulatorError.socket(operation: "pipe", errno: code)
            }
            for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            state.listenFD = listenFD
            state.wakeRead = pipeFDs[0]
            state.wakeWrite = pipeFDs[1]
            state.port = Self.boundPort(listenFD)
            state.started = true
            lifecycle.enter()
            let wakeRead = pipeFDs[0]
            Thread { [self] in
                self.acceptLoop(listenFD: listenFD, wakeFD: wakeRead)
                self.lifecycle.leave()
            }.start()
            return state.port
        }
    }

    /// Closes the listener and every open connection, cuts short any delayed answer, and
    /// waits (briefly) for the server's threads to finish. Safe to call more than once.
    func stop() {
        let wakeFDs: (Int32, Int32)? = state.withLock { state in
            guard state.started, !state.stopped else { return nil }
            state.stopped = true
            for fd in state.clients { shutdown(fd, Int32(SHUT_RDWR)) }
            return (state.wakeRead, state.wakeWrite)
        }
        guard let (wakeRead, wakeWrite) = wakeFDs else { return }
        lifecycle.fire()
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        lifecycle.waitUntilIdle(timeout: 5)
        close(wakeRead)
        close(wakeWrite)
    }

    // MARK: Listening

    /// `bind(2)` for either address family (`sockaddr_in` or `sockaddr_in6`).
    private static func bindSocket<Address>(_ fd: Int32, to address: inout Address) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
    }

    private static func bind(host: String, port: Int) throws -> Int32 {
        let address = host == "localhost" ? "127.0.0.1" : host
        let isIPv6 = address.contains(":")
        let family = isIPv6 ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw EmulatorError.socket(operation: "socket", errno: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))

        // nil when the address does not parse in its family.
        let bound: Int32?
        if isIPv6 {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
            bound = inet_pton(AF_INET6, address, &addr.sin6_addr) == 1 ? bindSocket(fd, to: &addr) : nil
        } else {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
            bound = inet_pton(AF_INET, address, &addr.sin_addr) == 1 ? bindSocket(fd, to: &addr) : nil
        }
        guard let bound else {
            close(fd)
            throw EmulatorError.invalidHost(host)
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw EmulatorError.socket(operation: "bind \(host):\(port)", errno: code)
        }
        guard listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw EmulatorError.socket(operation: "listen", errno: code)
        }
        return fd
    }

    private static func boundPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        if Int32(storage.ss_family) == AF_INET6 {
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// Waits on the listener and the wake-up pipe together, so `stop()` can end it
    /// without relying on `close()` interrupting a blocked `accept()` (Linux does not).
    private func acceptLoop(listenFD: Int32, wakeFD: Int32) {
        var fds = [
            pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[1].revents != 0 { break }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            let client = accept(listenFD, nil, nil)
            guard client >= 0 else { continue }
            // Not inherited by processes a test or `twfeed demo` spawns: a leaked copy
            // would keep the connection open after `stop()`.
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.clients.insert(client)
                return true
            }
            guard accepted else {
                close(client)
                break
            }
            lifecycle.enter()
            Thread { [self] in
                self.serve(client)
                self.lifecycle.leave()
            }.start()
        }
        state.withLock { state in
            close(state.listenFD)
            state.listenFD = -1
        }
    }

    // MARK: Connections

    private func serve(_ fd: Int32) {
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: Self.idleTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        var reader = HTTPRequestReader(fd: fd)
        var reset = false
        var served = 0
        loop: while !lifecycle.isStopped {
            switch reader.next(sendContinue: { Self.send(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }) {
            case .closed:
                break loop
            case .malformed(let status):
                let response = EmulatorResponse.text(status, EmulatorResponse.reason(status) + "\n")
                Self.send(fd, response.head(contentLength: response.body.count, keepAlive: false) + response.body)
                break loop
            case .request(var request):
                served += 1
                request.connectionRequestNumber = served
                let response = handler(request)
                if response.delay > 0, lifecycle.wait(seconds: response.delay) { break loop }
                let keepAlive = !request.wantsClose && !response.closeAfter
                let isHead = request.method == "HEAD"
                switch response.delivery {
                case .complete:
                    let head = response.head(contentLength: response.body.count, keepAlive: keepAlive)
                    guard Self.send(fd, isHead ? head : head + response.body) else { break loop }
                    if !isHead { response.onBodySent?(response.body.count) }
                    if !keepAlive { break loop }
                case .stallMidBody(let seconds):
                    let half = response.body.count / 2
                    guard
                        Self.send(
                            fd,
                            response.head(contentLength: response.body.count, keepAlive: keepAlive)
                                + (isHead ? [] : Array(response.body.prefix(half)))
                        )
                    else { break loop }
                    if isHead { continue }
                    response.onBodySent?(half)
                    if lifecycle.wait(seconds: seconds) { break loop }
                    guard Self.send(fd, Array(response.body.dropFirst(half))) else { break loop }
                    response.onBodySent?(response.body.count - half)
                    if !keepAlive { break loop }
                case .unsized(let total):
                    // The end of the body is the end of the connection.
                    guard Self.send(fd, response.head(contentLength: nil, keepAlive: false)), !isHead else { break loop }
                    var sent = 0
                    let zeros = [UInt8](repeating: 0, count: 64 << 10)
                    while sent < total, !lifecycle.isStopped {
                        let chunk =
                            sent < response.body.count
                            ? Array(response.body[sent..<min(response.body.count, sent + zeros.count)])
                            : Array(zeros.prefix(total - sent))
                        guard Self.send(fd, chunk) else { break }
                        sent += chunk.count
                        response.onBodySent?(chunk.count)
                    }
                    break loop
                case .resetMidBody:
                    let head = response.head(contentLength: response.body.count, keepAlive: keepAlive)
                    Self.send(fd, head + response.body.prefix(response.body.count / 2))
                    // Let the partial answer reach the client before the reset overtakes it.
                    _ = lifecycle.wait(seconds: 0.05)
                    reset = true
                    break loop
                case .resetWithoutAnswer:
                    reset = true
                    break loop
                case .closeWithoutAnswer:
                    break loop
                }
            }
        }
        state.withLock { state in
            state.clients.remove(fd)
            if reset {
                // SO_LINGER {on, 0 s}: close() sends RST instead of FIN, so the client
                // sees "connection reset by peer", not a clean end of stream.
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            } else {
                shutdown(fd, Int32(SHUT_WR))
            }
            close(fd)
        }
    }

    /// Writes all bytes (no SIGPIPE if the peer is gone); false on failure.
    @discardableResult
    private static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
