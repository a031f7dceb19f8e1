import Foundation

/// Writes a file so that readers see the old or the new content, never a mix:
/// a temporary file beside it, fsync, rename, fsync of the folder.
package enum AtomicFile {
    package static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true)
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        try data.withUnsafeBytes { try writeNewFile($0, to: temporary, mode: mode) }
        guard rename(temporary, path) == 0 else {
            let error = ioError("cannot write", path)
            unlink(temporary)
            throw error
        }
        syncDirectory(directory.isEmpty ? "." : directory)
    }

    /// Creates `path`, which must not exist yet, with exactly `mode` (whatever the
    /// umask), writes all of `bytes` and fsyncs it. On failure nothing is left behind.
    package static func writeNewFile(_ bytes: UnsafeRawBufferPointer, to path: String, mode: mode_t) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ioError("cannot create", path) }
        var ok = fchmod(fd, mode) == 0
        var offset = 0
        while ok && offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { ok = false } else { offset += written }
        }
        ok = ok && fsync(fd) == 0
        let error = ok ? nil : ioError("cannot write", path)
        close(fd)
        if let error {
            unlink(path)
            throw error
        }
    }

    /// Makes a rename in `directory` durable.
    package static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    private static func ioError(_ what: String, _ path: String) -> TwfeedError {
        TwfeedError(.io, "\(path): \(what): \(String(cString: strerror(errno)))")
    }
}
