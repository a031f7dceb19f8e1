import Foundation

/// Writes a file so that readers see the old or the new content, never a mix:
/// a temporary file beside it, fsync, rename, fsync of the folder.
public enum AtomicFile {
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true)
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ioError("cannot create", temporary) }
        var ok = fchmod(fd, mode) == 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while ok && offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { ok = false } else { offset += written }
            }
        }
        ok = ok && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw ioError("cannot write", path)
        }
        let dirFD = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }

    private static func ioError(_ what: String, _ path: String) -> TwfeedError {
        TwfeedError(.io, "\(path): \(what): \(String(cString: strerror(errno)))")
    }
}
