import Glibc
import TwfeedCore

/// `GET /avatars/FILE` and `GET /media/FILE`: a picture from the image cache (an
/// avatar, a photo, a video's or GIF's still: one cache), and nothing else.
///
/// - The name must have the cache's own shape (`ab/cd/<sha256>.<ext>`, lower-case hex):
///   `..`, an encoded slash, a dot-file or any other name is refused before the disk
///   is touched.
/// - Each folder and the file are opened with `O_NOFOLLOW` below the cache folder, so
///   a symlink planted in the cache cannot lead out of it.
/// - The Content-Type comes from the file's own bytes (its magic number), not from its
///   name or from what the API's host said.
struct CachedPicture {
    var bytes: [UInt8]
    var contentType: String

    /// The fetchers cut a download off at 5 MB: a larger file was not written by them.
    static let maxBytes = 8 << 20

    static func read(_ file: String, cacheRoot: String) -> CachedPicture? {
        guard ImageStore.isCacheName(file) else { return nil }
        var directory = open(cacheRoot, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return nil }
        let parts = file.split(separator: "/").map(String.init)
        for folder in parts.dropLast() {
            let next = openat(directory, folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            close(directory)
            guard next >= 0 else { return nil }
            directory = next
        }
        let fd = openat(directory, parts.last!, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        close(directory)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= maxBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            guard count > 0 else { return nil }
            done += count
        }
        guard let format = ImageFormat.sniff(bytes) else { return nil }
        return CachedPicture(bytes: bytes, contentType: format.mediaTypes[0])
    }
}
