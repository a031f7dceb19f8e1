import Glibc

/// A TCP socket bound to a free port on 127.0.0.1 (the kernel picks it), held until
/// `close()`: listening, to occupy a port a test wants taken; closed at once, to find a
/// port a server started next can bind.
package struct LoopbackSocket {
    package let fd: Int32
    package let port: Int

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package init(listening: Bool) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = fd
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && (!listening || listen(fd, 1) == 0) && getsockname(fd, raw, &length) == 0
            }
        }
        guard fd >= 0, bound else {
            if fd >= 0 { Glibc.close(fd) }
            throw Failure(description: "cannot bind a loopback port: \(String(cString: strerror(errno)))")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// A port nobody listens on now (bound, read back, released).
    package static func freePort() throws -> Int {
        let socket = try LoopbackSocket(listening: false)
        socket.close()
        return socket.port
    }

    package func close() {
        Glibc.close(fd)
    }
}
