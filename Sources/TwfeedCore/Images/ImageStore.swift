import Foundation
import Synchronization

/// The image cache's files: content-addressed, `ab/cd/<sha256>.<ext>` under the cache
/// folder, where `abcd` are the hash's first four hex digits.
///
/// - A file's name is the hash of its bytes, never anything from the URL: no remote
///   string can name a path, and the same picture used by several authors is one file.
/// - Files are written atomically (temporary file, fsync, rename, fsync of the folder):
///   a kill leaves the old state or the new, never a partial image under a real name.
///   The slow part (write and fsync) runs off the cooperative pool and outside the lock.
/// - The fan-out keeps folders small (65,536 leaves) however large the cache grows.
/// - Only names of this exact shape are ever deleted, so a cache folder pointed at the
///   wrong place by mistake loses nothing that twfeed did not write.
///
/// Writers (the fetcher installing a file and committing its row) and the janitor (which
/// deletes files no row names) take `withLock`, so the janitor never sees a file in the
/// moment between its rename and its row's commit. The lock is never held across I/O
/// waits longer than a rename and a small transaction.
package final class ImageStore: Sendable {
    package let root: String
    private let lock: AsyncLock

    /// One lock per folder for the whole process: the stores of two daemon generations
    /// (a reload) or of a test's two daemons never race each other.
    private static let locks = Mutex<[String: AsyncLock]>([:])

    package init(root: String) {
        let root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.root = root
        lock = Self.locks.withLock { locks in
            if let lock = locks[root] { return lock }
            let lock = AsyncLock()
            locks[root] = lock
            return lock
        }
    }

    /// What `put` stored.
    package struct Stored: Sendable, Equatable {
        /// `ab/cd/<sha256>.<ext>`, relative to the cache folder (what the database keeps).
        package var file: String
        package var bytes: Int
        /// False when the same bytes were already there (shared with another author).
        package var written: Bool
    }

    /// Runs `body` with the cache's lock held. Waiting for it suspends the task; it
    /// never blocks a thread.
    package func withLock<T>(_ body: () async throws -> T) async rethrows -> T {
        await lock.lock()
        defer { lock.unlock() }
        return try await body()
    }

    /// The absolute path of a relative name from the database, or nil if the name does
    /// not have the cache's shape (a tampered row cannot point outside the folder).
    package func path(of file: String) -> String? {
        Self.isCacheName(file) ? "\(root)/\(file)" : nil
    }

    package static func fileName(sha256 hex: String, format: ImageFormat) -> String {
        let digits = Array(hex)
        return "\(digits[0])\(digits[1])/\(digits[2])\(digits[3])/\(hex).\(format.fileExtension)"
    }

    /// Bytes written and fsynced to a temporary file beside their final name, not yet
    /// visible under it: `stage` off the lock, `install` under it.
    package struct Staged: Sendable {
        package var file: String
        package var bytes: Int
        let temporary: String
    }

    /// Writes `bytes` to `<final name>.tmp-<pid>-<n>` and fsyncs it, on a dispatch queue:
    /// disk waits never block the cooperative pool, where the feed pollers run.
    package func stage(_ bytes: [UInt8], format: ImageFormat) async throws -> Staged {
        let file = Self.fileName(sha256: SHA256.hex(bytes), format: format)
        let path = "\(root)/\(file)"
        let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        try await Self.offPool {
            let folder = (path as NSString).deletingLastPathComponent
            do {
                // Private like the database: which accounts one follows is the user's business.
                try FileManager.default.createDirectory(
                    atPath: folder,
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw TwfeedError(.io, "\(folder): cannot create the image cache folder: \(error.localizedDescription)")
            }
            try bytes.withUnsafeBytes { try AtomicFile.writeNewFile($0, to: temporary, mode: 0o600) }
        }
        return Staged(file: file, bytes: bytes.count, temporary: temporary)
    }

    /// Puts a staged file under its name (a rename: atomic), or drops it when the same
    /// bytes are already there. Take `withLock` around this and the database commit that
    /// names the file. Returns whether a new file appeared.
    @discardableResult
    package func install(_ staged: Staged) throws -> Bool {
        let path = "\(root)/\(staged.file)"
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == staged.bytes {
            unlink(staged.temporary)
            return false
        }
        guard rename(staged.temporary, path) == 0 else {
            let error = Self.ioError("cannot rename into", path)
            unlink(staged.temporary)
            throw error
        }
        return true
    }

    /// Drops a staged file that will not be installed.
    package func discard(_ staged: Staged) {
        unlink(staged.temporary)
    }

    /// Makes a rename durable: fsync of the file's folder, off the cooperative pool. A
    /// crash before it leaves a row naming a missing file, which the janitor repairs.
    package func syncFolder(of file: String) async {
        let folder = ("\(root)/\(file)" as NSString).deletingLastPathComponent
        try? await Self.offPool { AtomicFile.syncDirectory(folder) }
    }

    /// Writes `bytes` into the cache: staged and fsynced first, outside the lock; then
    /// renamed into place and named by its row (`record`, given the file, answers the
    /// file no row names any more) together, so the janitor never sees one without the
    /// other. True when a file was written (false: the same bytes were cached already).
    /// What the fetchers and the archive import put in the cache goes through here.
    package func install(_ bytes: [UInt8], format: ImageFormat, record: (_ file: String) async throws -> String?) async throws -> Bool {
        let staged = try await stage(bytes, format: format)
        let written = try await withLock {
            let written: Bool
            do {
                written = try install(staged)
            } catch {
                discard(staged)
                throw error
            }
            if let orphan = try await record(staged.file) { remove(orphan) }
            return written
        }
        if written { await syncFolder(of: staged.file) }
        return written
    }

    /// `stage` then `install`, for callers that need neither apart (tests, tools).
    package func put(_ bytes: [UInt8], format: ImageFormat) async throws -> Stored {
        let staged = try await stage(bytes, format: format)
        let written = try await withLock { try install(staged) }
        await syncFolder(of: staged.file)
        return Stored(file: staged.file, bytes: bytes.count, written: written)
    }

    private static func offPool(_ work: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    private static func ioError(_ what: String, _ path: String) -> TwfeedError {
        TwfeedError(.io, "\(path): \(what): \(String(cString: strerror(errno)))")
    }

    /// The absolute path of a cached file, nil while it is not on disk: what readers
    /// show as an author's `avatarPath`.
    package func cachedPath(_ file: String) -> String? {
        exists(file) ? path(of: file) : nil
    }

    package func exists(_ file: String) -> Bool {
        guard let path = path(of: file) else { return false }
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Deletes a cache file (and its fan-out folders once empty).
    package func remove(_ file: String) {
        guard let path = path(of: file) else { return }
        unlink(path)
        let leaf = (path as NSString).deletingLastPathComponent
        if rmdir(leaf) == 0 { rmdir((leaf as NSString).deletingLastPathComponent) }
    }

    /// What is on disk.
    package struct Scan: Sendable {
        /// Cache files by relative name, with their sizes.
        package var files: [String: Int64] = [:]
        /// Temporary files an atomic write left behind, relative names; with the pid that wrote them.
        package var temporaries: [(file: String, pid: Int32)] = []
    }

    /// Lists the cache's files. Looks only at `xx/yy/` folders and names of the cache's
    /// shape; symbolic links are not followed.
    package func scan() -> Scan {
        var scan = Scan()
        let manager = FileManager.default
        for first in (try? manager.contentsOfDirectory(atPath: root)) ?? [] where Self.isHexPair(first) {
            guard isDirectory("\(root)/\(first)") else { continue }
            for second in (try? manager.contentsOfDirectory(atPath: "\(root)/\(first)")) ?? [] where Self.isHexPair(second) {
                let folder = "\(first)/\(second)"
                guard isDirectory("\(root)/\(folder)") else { continue }
                for name in (try? manager.contentsOfDirectory(atPath: "\(root)/\(folder)")) ?? [] {
                    let file = "\(folder)/\(name)"
                    var info = stat()
                    guard lstat("\(root)/\(file)", &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                    if Self.isCacheName(file) {
                        scan.files[file] = Int64(info.st_size)
                    } else if let pid = Self.temporaryWriter(file) {
                        scan.temporaries.append((file, pid))
                    }
                }
            }
        }
        return scan
    }

    /// Deletes a temporary file found by `scan`.
    package func removeTemporary(_ file: String) {
        guard Self.temporaryWriter(file) != nil else { return }
        unlink("\(root)/\(file)")
    }

    private func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    // MARK: Names

    static func isHexPair(_ name: String) -> Bool {
        name.utf8.count == 2 && name.utf8.allSatisfy(isLowerHex)
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    /// `ab/cd/<64 hex>.<ext>`, with `abcd` the hash's first digits.
    package static func isCacheName(_ file: String) -> Bool {
        let parts = file.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 2, parts[1].utf8.count == 2 else { return false }
        let name = parts[2]
        guard let dot = name.firstIndex(of: "."), ImageFormat(rawValue: String(name[name.index(after: dot)...])) != nil else {
            return false
        }
        let hash = name[..<dot].utf8
        return hash.count == 64 && hash.allSatisfy(isLowerHex)
            && Array(hash.prefix(4)) == Array(parts[0].utf8) + Array(parts[1].utf8)
    }

    /// For `ab/cd/<hash>.<ext>.tmp-<pid>-<n>` (AtomicFile's temporary name), the pid.
    static func temporaryWriter(_ file: String) -> Int32? {
        guard let marker = file.range(of: ".tmp-"), isCacheName(String(file[..<marker.lowerBound])) else { return nil }
        let parts = file[marker.upperBound...].split(separator: "-")
        guard parts.count == 2, let pid = Int32(parts[0]), UInt32(parts[1]) != nil else { return nil }
        return pid
    }
}
