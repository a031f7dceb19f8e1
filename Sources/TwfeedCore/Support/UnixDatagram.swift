import Glibc

/// Addressing and sending for `AF_UNIX` datagram sockets, shared by the wake socket and
/// sd_notify. A name starting with `@` is in the abstract namespace.
package enum UnixDatagram {
    /// The address and its exact length. For an abstract name the length counts only
    /// the name's bytes after `sun_path`'s leading zero: the kernel compares all
    /// `length` bytes, and systemd binds its notification socket with the exact length.
    package static func address(_ path: String) throws -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw TwfeedError(.io, "\(path): socket path longer than \(capacity - 1) bytes") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        return (address, socklen_t(offset + bytes.count + (abstract ? 0 : 1)))
    }

    package static func socket() -> Int32 {
        Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    package static func bind(_ fd: Int32, to path: String) throws -> Bool {
        let (target, length) = try self.address(path)
        var address = target
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) }
        } == 0
    }

    /// Sends one datagram from `fd` to `path`; false when it could not be sent (nobody
    /// listens, or the path is invalid).
    @discardableResult
    package static func send(_ message: String, from fd: Int32, to path: String, flags: Int32) -> Bool {
        guard let (target, length) = try? self.address(path) else { return false }
        var address = target
        let sent = message.utf8CString.withUnsafeBufferPointer { buffer in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, buffer.baseAddress, buffer.count - 1, flags, $0, length)
                }
            }
        }
        return sent >= 0
    }
}
