#if canImport(Glibc)
import Glibc
#endif

/// Standard output through one buffer, written with `write(2)` once it holds 64 KiB:
/// a full dump of a large feed makes a few hundred system calls, not one per tweet.
struct StandardOutput {
    var buffer: [UInt8] = []
    static let capacity = 64 * 1024

    init() { buffer.reserveCapacity(Self.capacity + 4096) }

    mutating func flushIfFull() {
        if buffer.count >= Self.capacity { flush() }
    }

    /// Writes everything buffered; a closed pipe (`twfeed feed | head`) ends the
    /// writing quietly, as other command-line tools do.
    mutating func flush() {
        var offset = 0
        buffer.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let written = write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 { offset += written } else if written < 0, errno == EINTR { continue } else { break }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
