import Foundation

/// One daemon per database: a write lock on `<database>.lock`, held for the daemon's
/// whole life and released by the kernel however the process ends (no stale lock
/// after a crash or a SIGKILL).
///
/// The lock is an open-file-description lock (`F_OFD_SETLK`): it belongs to this open
/// file, not to the process, so a second attempt fails even from the same process (a
/// test, a reload) and closing some other descriptor of the file never drops it. The
/// file holds the holder's pid as text, for the message and for liveness checks.
///
/// Byte 0 of the file is the daemon's lock; byte 1 serializes migrations among every
/// process that opens the database to write (`withMigrationLock`), so two processes
/// opening a new database at once do not race on its schema.
package final class DatabaseLock: Sendable {
    package let path: String
    private let descriptor: Int32

    /// Linux's values (fcntl.h, `_GNU_SOURCE`), which Glibc's Swift module leaves out.
    static let getLock: Int32 = 36
    static let setLock: Int32 = 37
    static let setLockWait: Int32 = 38
    /// The byte each lock covers.
    static let daemonByte: Int = 0
    static let migrationByte: Int = 1

    package static func path(forDatabase database: String) -> String { database + ".lock" }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Takes the lock, or throws exit 75: "<database>: already in use by twfeed (pid N)".
    package static func acquire(database: String) throws -> DatabaseLock {
        let path = path(forDatabase: database)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code: TwfeedError.Code = errno == EACCES || errno == EPERM ? .permission : .io
            throw TwfeedError(code, "\(path): cannot open the daemon lock: \(String(cString: strerror(errno)))")
        }
        var request = lockRequest(F_WRLCK, byte: daemonByte)
        guard fcntl(fd, setLock, &request) == 0 else {
            let reason = errno
            close(fd)
            if reason == EAGAIN || reason == EACCES {
                let holder = holder(database: database).map { "pid \($0)" } ?? "pid unknown"
                throw TwfeedError(.temporary, "\(database): already in use by twfeed (\(holder))")
            }
            throw TwfeedError(.io, "\(path): cannot lock: \(String(cString: strerror(reason)))")
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return DatabaseLock(path: path, descriptor: fd)
    }

    /// The pid of the daemon holding the database's lock; nil when nobody holds it (or
    /// the file cannot be read, e.g. another user's 0600 lock).
    package static func holder(database: String) -> Int32? {
        let path = path(forDatabase: database)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var probe = lockRequest(F_WRLCK, byte: daemonByte)
        guard fcntl(fd, getLock, &probe) == 0, probe.l_type != Int16(F_UNLCK) else { return nil }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Runs `body` (the migrations) while holding the database's migration lock,
    /// waiting for another process's migrations to finish first. Without a lock file
    /// (a read-only folder) it runs unlocked: nothing can migrate there anyway.
    package static func withMigrationLock<T>(database: String, _ body: () throws -> T) throws -> T {
        let fd = open(path(forDatabase: database), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return try body() }
        defer { close(fd) }  // closing the description releases its lock
        var request = lockRequest(F_WRLCK, byte: migrationByte)
        while fcntl(fd, setLockWait, &request) != 0 {
            guard errno == EINTR else { return try body() }
        }
        return try body()
    }

    private static func lockRequest(_ type: Int32, byte: Int) -> flock {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(byte)
        request.l_len = 1
        request.l_pid = 0  // must be 0 for OFD locks
        return request
    }
}
