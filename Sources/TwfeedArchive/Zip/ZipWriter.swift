import CZlib
import Foundation

/// Writes a zip in one pass, entries stored or deflated through zlib, ZIP64 records when
/// a size or offset needs them (or always, `forceZip64`, so tests reach that path
/// without writing 4 GB).
final class ZipWriter {
    private let handle: FileHandle
    private let path: String
    private var offset: Int64 = 0
    private var central: [UInt8] = []
    private var count = 0
    private let forceZip64: Bool

    init(path: String, forceZip64: Bool = false) throws(ArchiveError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw ArchiveError(.unreadable, file: path, "cannot be written")
        }
        self.handle = handle
        self.path = path
        self.forceZip64 = forceZip64
    }

    func add(_ name: String, _ data: Data, deflate: Bool) throws(ArchiveError) {
        let crc = data.withUnsafeBytes { UInt32(truncatingIfNeeded: crc32(0, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count))) }
        let body = deflate ? try Self.deflated(data, name: name) : data
        let method: UInt16 = deflate ? 8 : 0
        let nameBytes = Array(name.utf8)
        let zip64 = forceZip64 || Int64(data.count) >= 0xFFFF_FFFF || offset >= 0xFFFF_FFFF
        // The fields both headers share, from "version needed" to the name's length.
        var shared: [UInt8] = []
        shared.put(UInt16(zip64 ? 45 : 20))
        shared.put(UInt16(0x0800))  // UTF-8 names
        shared.put(method)
        shared.put(UInt32(0x0021_0000))  // 1980-01-01 00:00, DOS time and date
        shared.put(crc)
        shared.put(zip64 ? UInt32(0xFFFF_FFFF) : UInt32(body.count))
        shared.put(zip64 ? UInt32(0xFFFF_FFFF) : UInt32(data.count))
        shared.put(UInt16(nameBytes.count))
        var local: [UInt8] = []
        local.put(UInt32(0x0403_4b50))
        local += shared
        local.put(UInt16(zip64 ? 20 : 0))
        local += nameBytes
        if zip64 {
            local.put(UInt16(1))
            local.put(UInt16(16))
            local.put(UInt64(data.count))
            local.put(UInt64(body.count))
        }
        var entry: [UInt8] = []
        entry.put(UInt32(0x0201_4b50))
        entry.put(UInt16(zip64 ? 45 : 20))  // version made by
        entry += shared
        entry.put(UInt16(zip64 ? 28 : 0))
        entry.put(UInt16(0))  // comment
        entry.put(UInt16(0))  // disk
        entry.put(UInt16(0))  // internal attributes
        entry.put(UInt32(0o100644) << 16)  // a regular file, rw-r--r--
        entry.put(zip64 ? UInt32(0xFFFF_FFFF) : UInt32(offset))
        entry += nameBytes
        if zip64 {
            entry.put(UInt16(1))
            entry.put(UInt16(24))
            entry.put(UInt64(data.count))
            entry.put(UInt64(body.count))
            entry.put(UInt64(offset))
        }
        central += entry
        count += 1
        try write(Data(local))
        try write(body)
    }

    func finish() throws(ArchiveError) {
        let directoryOffset = offset
        try write(Data(central))
        var end: [UInt8] = []
        let zip64 = forceZip64 || directoryOffset >= 0xFFFF_FFFF || count >= 0xFFFF
        if zip64 {
            let recordOffset = offset
            end.put(UInt32(0x0606_4b50))
            end.put(UInt64(44))
            end.put(UInt16(45))
            end.put(UInt16(45))
            end.put(UInt32(0))
            end.put(UInt32(0))
            end.put(UInt64(count))
            end.put(UInt64(count))
            end.put(UInt64(central.count))
            end.put(UInt64(directoryOffset))
            end.put(UInt32(0x0706_4b50))
            end.put(UInt32(0))
            end.put(UInt64(recordOffset))
            end.put(UInt32(1))
        }
        end.put(UInt32(0x0605_4b50))
        end.put(UInt16(0))
        end.put(UInt16(0))
        end.put(zip64 ? UInt16(0xFFFF) : UInt16(count))
        end.put(zip64 ? UInt16(0xFFFF) : UInt16(count))
        end.put(zip64 ? UInt32(0xFFFF_FFFF) : UInt32(central.count))
        end.put(zip64 ? UInt32(0xFFFF_FFFF) : UInt32(directoryOffset))
        end.put(UInt16(0))
        try write(Data(end))
        try? handle.close()
    }

    private func write(_ data: Data) throws(ArchiveError) {
        do {
            try handle.write(contentsOf: data)
        } catch {
            throw ArchiveError(.unreadable, file: path, "cannot be written: \(error.localizedDescription)")
        }
        offset += Int64(data.count)
    }

    /// Raw deflate (no zlib header), as a zip entry holds it.
    static func deflated(_ data: Data, name: String) throws(ArchiveError) -> Data {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream,
                Z_DEFAULT_COMPRESSION,
                Z_DEFLATED,
                -MAX_WBITS,
                8,
                Z_DEFAULT_STRATEGY,
                zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)
            ) == Z_OK
        else { throw ArchiveError(.unreadable, file: name, "zlib cannot start deflating") }
        defer { deflateEnd(&stream) }
        var input = data
        var out = Data(count: Int(deflateBound(&stream, uLong(data.count))) + 16)
        let status = input.withUnsafeMutableBytes { source in
            out.withUnsafeMutableBytes { target in
                stream.next_in = source.bindMemory(to: Bytef.self).baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw ArchiveError(.unreadable, file: name, "zlib cannot deflate it") }
        out.count = Int(stream.total_out)
        return out
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` little-endian (the zip format's byte order).
    mutating func put<T: FixedWidthInteger>(_ value: T) {
        for index in 0..<MemoryLayout<T>.size { append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
}
