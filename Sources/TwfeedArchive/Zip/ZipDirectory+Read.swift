import CZlib
import Foundation

extension ZipDirectory {
    /// An entry's bytes, inflated in memory. The output buffer is the declared size and
    /// no more: an entry that inflates past it (a header that lies) is refused, as is one
    /// that ends early, breaks its checksum, or passes the ratio while inflating.
    func read(_ entry: ZipEntry, limits: ArchiveLimits) throws(ArchiveError) -> Data {
        guard let local = try file.bytes(at: entry.localHeaderOffset, count: 30),
            local.littleEndian(UInt32.self, at: 0) == Self.localSignature
        else { throw ArchiveError(.truncated, file: entry.name, "the entry's local header is missing") }
        let start =
            entry.localHeaderOffset + 30 + Int64(local.littleEndian(UInt16.self, at: 26))
            + Int64(local.littleEndian(UInt16.self, at: 28))
        guard start + entry.compressedSize <= file.size else {
            throw ArchiveError(.truncated, file: entry.name, "the zip ends inside the entry")
        }
        guard entry.uncompressedSize <= Int64(Int.max) else { throw ArchiveError(.tooLarge, file: entry.name, "the entry is too large") }
        var out = Data(count: Int(entry.uncompressedSize))
        switch entry.method {
        case .stored:
            let complete = try out.withMutableBytes { buffer throws(ArchiveError) in try file.read(into: buffer, at: start) }
            guard complete else { throw ArchiveError(.truncated, file: entry.name, "the zip ends inside the entry") }
        case .deflated:
            try inflate(entry, from: start, into: &out, limits: limits)
        }
        let crc = out.withUnsafeBytes { buffer in
            UInt32(truncatingIfNeeded: crc32(0, buffer.bindMemory(to: Bytef.self).baseAddress, uInt(buffer.count)))
        }
        guard crc == entry.crc32 else { throw ArchiveError(.badData, file: entry.name, "the entry's checksum does not match its bytes") }
        return out
    }

    private func inflate(_ entry: ZipEntry, from start: Int64, into out: inout Data, limits: ArchiveLimits) throws(ArchiveError) {
        var stream = z_stream()
        // Raw deflate (negative window bits): a zip entry has no zlib header.
        guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ArchiveError(.unreadable, file: entry.name, "zlib cannot start inflating")
        }
        defer { inflateEnd(&stream) }
        let chunkSize = 1 << 20
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { input.deallocate() }
        // One spare byte past the declared size: inflating into it means the header lied.
        let spare = UnsafeMutablePointer<Bytef>.allocate(capacity: 1)
        defer { spare.deallocate() }
        var consumed: Int64 = 0
        let declared = entry.uncompressedSize
        try out.withMutableBytes { output throws(ArchiveError) in
            stream.next_out = output.bindMemory(to: Bytef.self).baseAddress ?? spare
            stream.avail_out = uInt(output.count)
            var inSpare = output.isEmpty
            if inSpare { stream.avail_out = 1 }
            while true {
                if stream.avail_in == 0 {
                    let count = Int(min(Int64(chunkSize), entry.compressedSize - consumed))
                    guard count > 0 else { throw ArchiveError(.truncated, file: entry.name, "the entry's compressed data ends early") }
                    let chunk = UnsafeMutableRawBufferPointer(rebasing: input[0..<count])
                    guard try file.read(into: chunk, at: start + consumed) else {
                        throw ArchiveError(.truncated, file: entry.name, "the zip ends inside the entry")
                    }
                    consumed += Int64(count)
                    stream.next_in = input.bindMemory(to: Bytef.self).baseAddress
                    stream.avail_in = uInt(count)
                }
                if stream.avail_out == 0 {
                    guard !inSpare else { break }
                    inSpare = true
                    stream.next_out = spare
                    stream.avail_out = 1
                }
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                if inSpare && stream.avail_out == 0 {
                    throw ArchiveError(.tooLarge, file: entry.name, "the entry inflates past its declared \(declared) bytes")
                }
                if limits.exceedsRatio(uncompressed: Int64(stream.total_out), compressed: Int64(stream.total_in)) {
                    throw ArchiveError(.tooLarge, file: entry.name, "the entry inflates more than \(limits.maxRatio) times")
                }
                switch status {
                case Z_STREAM_END: return
                case Z_OK, Z_BUF_ERROR: continue
                default: throw ArchiveError(.badData, file: entry.name, "the entry's deflate data is corrupt")
                }
            }
        }
        if Int64(stream.total_out) != declared {
            throw ArchiveError(.badData, file: entry.name, "the entry inflates to \(stream.total_out) bytes, not its declared \(declared)")
        }
    }
}
