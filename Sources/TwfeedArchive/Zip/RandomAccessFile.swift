import Foundation

/// A file read at offsets (`pread`), never whole: the zip's central directory sits at its
/// end and each entry is read where its header says, so a multi-GB archive costs only
/// what is read from it.
final class RandomAccessFile: @unchecked Sendable {
    /// Immutable after `init`; `pread` keeps no file position, so reads from several
    /// tasks do not race.
    private let descriptor: Int32
    let path: String
    let size: Int64

    init(path: String) throws(ArchiveError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ArchiveError(.unreadable, file: path, "cannot be opened: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            throw ArchiveError(.unreadable, file: path, "cannot be read: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        self.path = path
        self.size = Int64(info.st_size)
    }

    deinit { close(descriptor) }

    /// Exactly `count` bytes at `offset` into `buffer`; false when the file ends first.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(ArchiveError) -> Bool {
        var done = 0
        while done < buffer.count {
            let got = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if got < 0 {
                if errno == EINTR { continue }
                throw ArchiveError(.unreadable, file: path, "cannot be read: \(String(cString: strerror(errno)))")
            }
            if got == 0 { return false }
            done += got
        }
        return true
    }

    /// `count` bytes at `offset`, or nil when the file ends first.
    func bytes(at offset: Int64, count: Int) throws(ArchiveError) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset + Int64(count) <= size else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        return try read(into: buffer, at: offset) ? Array(buffer.bindMemory(to: UInt8.self)) : nil
    }
}

extension Array where Element == UInt8 {
    /// A little-endian integer at `offset` (the zip format's byte order).
    func littleEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size { value |= T(self[offset + index]) << (8 * index) }
        return value
    }
}
