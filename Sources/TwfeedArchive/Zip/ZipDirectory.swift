import Foundation

/// A zip's central directory, read from the end of the file (ZIP64 when the archive
/// needs it: X's archives can exceed 4 GB). Every entry is checked here, before any is
/// read: its path, its place in the file, its declared sizes against the limits.
struct ZipDirectory: Sendable {
    let file: RandomAccessFile
    let entries: [ZipEntry]

    private static let endSignature: UInt32 = 0x0605_4b50
    private static let zip64EndSignature: UInt32 = 0x0606_4b50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    private static let centralSignature: UInt32 = 0x0201_4b50
    static let localSignature: UInt32 = 0x0403_4b50

    init(file: RandomAccessFile, limits: ArchiveLimits) throws(ArchiveError) {
        self.file = file
        let path = file.path
        let head = try file.bytes(at: 0, count: Int(min(file.size, 4))) ?? []
        let looksLikeZip = head.count == 4 && head.littleEndian(UInt32.self, at: 0) == Self.localSignature
        let empty = head.count == 4 && head.littleEndian(UInt32.self, at: 0) == Self.endSignature
        guard looksLikeZip || empty else { throw ArchiveError(.notAnArchive, file: path, "is neither a zip nor a folder holding data/") }

        // The end record: 22 bytes and a comment of at most 65,535, so within the last 65,557.
        let tailCount = Int(min(file.size, 22 + 65_535))
        guard let tail = try file.bytes(at: file.size - Int64(tailCount), count: tailCount), tailCount >= 22,
            let endAt = (0...(tailCount - 22)).reversed().first(where: { tail.littleEndian(UInt32.self, at: $0) == Self.endSignature })
        else { throw ArchiveError(.truncated, file: path, "the zip ends before its central directory") }
        let endOffset = file.size - Int64(tailCount) + Int64(endAt)
        var count = Int64(tail.littleEndian(UInt16.self, at: endAt + 10))
        var directorySize = Int64(tail.littleEndian(UInt32.self, at: endAt + 12))
        var directoryOffset = Int64(tail.littleEndian(UInt32.self, at: endAt + 16))
        if tail.littleEndian(UInt16.self, at: endAt + 4) != 0 || tail.littleEndian(UInt16.self, at: endAt + 6) != 0 {
            throw ArchiveError(.notAnArchive, file: path, "is one part of a split zip")
        }

        // ZIP64: a locator just before the end record points at the 64-bit end record.
        if endOffset >= 20, let locator = try file.bytes(at: endOffset - 20, count: 20),
            locator.littleEndian(UInt32.self, at: 0) == Self.zip64LocatorSignature
        {
            let recordOffset = Int64(bitPattern: locator.littleEndian(UInt64.self, at: 8))
            guard let record = try file.bytes(at: recordOffset, count: 56),
                record.littleEndian(UInt32.self, at: 0) == Self.zip64EndSignature
            else { throw ArchiveError(.truncated, file: path, "the zip's ZIP64 end record is missing") }
            count = Int64(bitPattern: record.littleEndian(UInt64.self, at: 32))
            directorySize = Int64(bitPattern: record.littleEndian(UInt64.self, at: 40))
            directoryOffset = Int64(bitPattern: record.littleEndian(UInt64.self, at: 48))
        }
        guard directoryOffset >= 0, directorySize >= 0, count >= 0, directoryOffset + directorySize <= endOffset,
            count <= directorySize / 46 + 1
        else { throw ArchiveError(.truncated, file: path, "the zip's central directory lies outside the file") }
        guard let directory = try file.bytes(at: directoryOffset, count: Int(directorySize)) else {
            throw ArchiveError(.truncated, file: path, "the zip ends inside its central directory")
        }
        entries = try Self.entries(directory, count: Int(count), dataEnd: directoryOffset, path: path, limits: limits)
    }

    private static func entries(
        _ directory: [UInt8],
        count: Int,
        dataEnd: Int64,
        path: String,
        limits: ArchiveLimits
    )
        throws(ArchiveError) -> [ZipEntry]
    {
        var entries: [ZipEntry] = []
        entries.reserveCapacity(count)
        var at = 0
        var total: Int64 = 0
        for _ in 0..<count {
            guard at + 46 <= directory.count, directory.littleEndian(UInt32.self, at: at) == centralSignature else {
                throw ArchiveError(.truncated, file: path, "the zip's central directory is cut short")
            }
            let flags = directory.littleEndian(UInt16.self, at: at + 8)
            let methodCode = directory.littleEndian(UInt16.self, at: at + 10)
            let crc = directory.littleEndian(UInt32.self, at: at + 16)
            var compressed = Int64(directory.littleEndian(UInt32.self, at: at + 20))
            var uncompressed = Int64(directory.littleEndian(UInt32.self, at: at + 24))
            let nameLength = Int(directory.littleEndian(UInt16.self, at: at + 28))
            let extraLength = Int(directory.littleEndian(UInt16.self, at: at + 30))
            let commentLength = Int(directory.littleEndian(UInt16.self, at: at + 32))
            var offset = Int64(directory.littleEndian(UInt32.self, at: at + 42))
            let end = at + 46 + nameLength + extraLength + commentLength
            guard end <= directory.count else { throw ArchiveError(.truncated, file: path, "the zip's central directory is cut short") }
            let name = String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            try zip64Sizes(
                directory[(at + 46 + nameLength)..<(at + 46 + nameLength + extraLength)],
                uncompressed: &uncompressed,
                compressed: &compressed,
                offset: &offset,
                name: name
            )
            at = end

            if let problem = EntryPath.problem(name) { throw ArchiveError(.unsafePath, file: name, problem) }
            if name.hasSuffix("/") { continue }
            guard flags & 1 == 0 else { throw ArchiveError(.badData, file: name, "the entry is encrypted") }
            let method: ZipEntry.Method
            switch methodCode {
            case 0: method = .stored
            case 8: method = .deflated
            default: throw ArchiveError(.badData, file: name, "the entry uses compression method \(methodCode) (only stored and deflate are read)")
            }
            guard compressed >= 0, uncompressed >= 0, offset >= 0, offset + 30 + compressed <= dataEnd else {
                throw ArchiveError(.truncated, file: name, "the entry's data lies outside the zip")
            }
            if method == .stored, compressed != uncompressed {
                throw ArchiveError(.badData, file: name, "a stored entry whose two sizes differ")
            }
            if limits.exceedsRatio(uncompressed: uncompressed, compressed: compressed) {
                throw ArchiveError(
                    .tooLarge,
                    file: name,
                    "the entry would inflate more than \(limits.maxRatio) times (\(uncompressed) bytes from \(compressed))"
                )
            }
            total += uncompressed
            if total > limits.maxTotalBytes {
                throw ArchiveError(.tooLarge, file: path, "the zip would unpack to more than \(limits.maxTotalBytes) bytes")
            }
            entries.append(
                ZipEntry(
                    name: name,
                    method: method,
                    compressedSize: compressed,
                    uncompressedSize: uncompressed,
                    crc32: crc,
                    localHeaderOffset: offset
                )
            )
        }
        return entries
    }

    /// The ZIP64 extra field (id 1) holds, in this order, each of the three values whose
    /// 32-bit field is all ones.
    private static func zip64Sizes(
        _ extra: ArraySlice<UInt8>,
        uncompressed: inout Int64,
        compressed: inout Int64,
        offset: inout Int64,
        name: String
    ) throws(ArchiveError) {
        guard uncompressed == 0xFFFF_FFFF || compressed == 0xFFFF_FFFF || offset == 0xFFFF_FFFF else { return }
        let extra = Array(extra)
        var at = 0
        while at + 4 <= extra.count {
            let id = extra.littleEndian(UInt16.self, at: at)
            let size = Int(extra.littleEndian(UInt16.self, at: at + 2))
            let body = at + 4
            guard body + size <= extra.count else { break }
            if id == 1 {
                var field = body
                for value in [0, 1, 2] {
                    let wanted =
                        value == 0 ? uncompressed == 0xFFFF_FFFF : value == 1 ? compressed == 0xFFFF_FFFF : offset == 0xFFFF_FFFF
                    guard wanted else { continue }
                    guard field + 8 <= body + size else { throw ArchiveError(.badData, file: name, "the entry's ZIP64 field is cut short") }
                    let number = Int64(bitPattern: extra.littleEndian(UInt64.self, at: field))
                    switch value {
                    case 0: uncompressed = number
                    case 1: compressed = number
                    default: offset = number
                    }
                    field += 8
                }
                return
            }
            at = body + size
        }
        throw ArchiveError(.badData, file: name, "the entry's sizes need a ZIP64 field it does not have")
    }
}
