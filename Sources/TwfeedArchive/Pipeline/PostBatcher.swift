import Foundation
import TwfeedCore

/// The posts of an archive, decoded one batch at a time: `Archive.posts` asks for the next
/// batch on another thread while its caller stores the current one, so the decoding and
/// the store's single writer use both cores. Holds one data file's bytes at a time (the
/// previous one is let go before the next is read) and at most the batch being made.
///
/// `@unchecked Sendable`: `next()` is only ever called by one task at a time — the
/// pipeline awaits each batch before it asks for the following one.
final class PostBatcher: @unchecked Sendable {
    private let archive: Archive
    private let batchSize: Int
    private var notes: NoteIndex
    private var fileIndex = 0
    private var data: Data?
    private var file: SourceFile?
    private var ranges: [Range<Int>] = []
    private var next = 0

    init(archive: Archive, batchSize: Int, notes: NoteIndex) {
        self.archive = archive
        self.batchSize = max(1, batchSize)
        self.notes = notes
    }

    /// The next batch of at most `batchSize` posts, in the archive's order; nil after the last.
    func nextBatch() throws(ArchiveError) -> [Tweet]? {
        var batch: [Tweet] = []
        batch.reserveCapacity(batchSize)
        while batch.count < batchSize {
            guard let data, let file, next < ranges.count else {
                guard try openNextFile() else { break }
                continue
            }
            let index = next
            let element = try DataElement.decodePost(data, ranges[index], file: file.name, index: index)
            batch.append(
                try PostDecoder.decode(
                    element,
                    raw: element.rawText(data),
                    account: archive.account.id,
                    notes: &notes,
                    file: file.name,
                    index: index
                )
            )
            next += 1
        }
        return batch.isEmpty ? nil : batch
    }

    /// Lets the current file go, then reads the next one; false when none is left.
    private func openNextFile() throws(ArchiveError) -> Bool {
        data = nil
        ranges = []
        next = 0
        let parts = archive.layout.posts
        guard fileIndex < parts.files.count else { return false }
        let file = parts.files[fileIndex]
        let read = try archive.source.read(file)
        ranges = try archive.elementRanges(read, file: file, path: parts.paths[fileIndex])
        data = read
        self.file = file
        fileIndex += 1
        return true
    }
}
