import Foundation
import TwfeedCore

/// An opened archive, zip or folder (`ArchiveOpener.open`). Opening reads only the zip's
/// directory, `account.js` and `manifest.js`; each data file is read when asked, one at a
/// time, its elements decoded one by one, so memory stays near the largest file's size.
package struct Archive: ArchiveReading {
    let source: any ArchiveSource
    let layout: ArchiveLayout
    let manifest: ArchiveManifest?
    package let account: ArchiveAccount
    private let photoFiles: [String: SourceFile]
    private let noteCache = NoteCache()

    package var ignoredFiles: [String] { layout.ignored }
    package var photos: [ArchivedPhoto] { layout.photos }
    /// Whether the posts are 2019-2020's `tweet.js` rather than today's `tweets.js`.
    package var isOlderGeneration: Bool { layout.olderPosts }
    /// The posts and likes `manifest.js` announces (nil without one): what a progress bar counts to.
    package var announcedPosts: Int? { manifest.map { m in layout.posts.paths.reduce(0) { $0 + (m.counts[$1] ?? 0) } } }
    package var announcedLikes: Int? { manifest.map { m in layout.likes.paths.reduce(0) { $0 + (m.counts[$1] ?? 0) } } }

    init(source: any ArchiveSource, path: String) throws(ArchiveError) {
        self.source = source
        let layout = ArchiveLayout(source.files)
        self.layout = layout
        guard source.files.keys.contains(where: { $0.hasPrefix("data/") }) else {
            throw ArchiveError(.notAnArchive, file: path, "holds no data/ folder: not an archive of X data")
        }
        guard let accountFile = layout.account else { throw ArchiveError(.badData, file: "data/account.js", "is missing") }
        let accountData = try source.read(accountFile.file)
        let ranges = try DataFile.elements(accountData, file: accountFile.file.name)
        guard let first = ranges.first else { throw ArchiveError(.badData, file: accountFile.file.name, "names no account") }
        let element = try DataElement.decode(
            accountData,
            first,
            wrapper: "account",
            required: true,
            file: accountFile.file.name,
            index: 0
        )
        account = try ArchiveAccount.decode(element.object, file: accountFile.file.name)

        if let manifestFile = layout.manifest {
            let manifest = try ArchiveManifest.decode(try source.read(manifestFile.file), file: manifestFile.file.name)
            // A cut archive: a file twfeed reads that the manifest lists with entries is not
            // there. One twfeed ignores (DMs, deleted posts, …) may be left out: an archive
            // unpacked without them still holds every post and like, whole.
            for (listed, count) in manifest.counts.sorted(by: { $0.key < $1.key })
            where count > 0 && source.files[listed] == nil && ArchiveLayout.isRead(listed) {
                throw ArchiveError(.badData, file: listed, "is listed in manifest.js with \(count) entries but missing: the archive is cut")
            }
            self.manifest = manifest
        } else {
            manifest = nil
        }
        let byName = Dictionary(source.files.values.map { ($0.name, $0) }) { first, _ in first }
        let photoNames = Set(layout.photos.map(\.path))
        photoFiles = byName.filter { photoNames.contains($0.key) }
    }

    // MARK: Reading

    package func check() async throws(ArchiveError) { try checkAll() }

    /// `check()` without suspending: every data file read through, every photo inflated.
    /// Each file's elements are split across the cores (`SplitCheck`); the notes are read
    /// once here and kept for `posts()`. A post's note changes its text, never whether it
    /// is valid, so the check decodes posts without matching them.
    package func checkAll() throws(ArchiveError) {
        _ = try notes()
        let owner = account.id
        try forEachFile(layout.posts) { (data, file, ranges) throws(ArchiveError) in
            try SplitCheck.forEach(ranges) { (range, index) throws(ArchiveError) in
                var none = NoteIndex([])
                let element = try DataElement.decodePost(data, range, file: file, index: index)
                _ = try PostDecoder.decode(element, raw: "", account: owner, notes: &none, file: file, index: index)
            }
        }
        try forEachFile(layout.likes) { (data, file, ranges) throws(ArchiveError) in
            try SplitCheck.forEach(ranges) { (range, index) throws(ArchiveError) in
                let element = try DataElement.decode(data, range, wrapper: "like", required: true, file: file, index: index)
                _ = try ArchivedLike.decode(element.object, file: file, index: index)
            }
        }
        for photo in photos { _ = try photoBytes(photo) }
    }

    /// Decodes the next batch on another thread while `body` stores the current one
    /// (`PostBatcher`): at most two batches exist at once, the one stored and the one made.
    package func posts(batchSize: Int, _ body: ([Tweet]) async throws -> Void) async throws {
        let batcher = PostBatcher(archive: self, batchSize: batchSize, notes: NoteIndex(try notes()))
        var pending = Task.detached { () throws(ArchiveError) -> [Tweet]? in try batcher.nextBatch() }
        while let batch = try await pending.value {
            pending = Task.detached { () throws(ArchiveError) -> [Tweet]? in try batcher.nextBatch() }
            do {
                try await body(batch)
            } catch {
                // The batch being made still reads the batcher: let it finish first.
                _ = try? await pending.value
                throw error
            }
        }
    }

    package func likes(batchSize: Int, _ body: ([ArchivedLike]) async throws -> Void) async throws {
        var batch: [ArchivedLike] = []
        for (file, path) in zip(layout.likes.files, layout.likes.paths) {
            let data = try source.read(file)
            let ranges = try elementRanges(data, file: file, path: path)
            for (index, range) in ranges.enumerated() {
                let element = try DataElement.decode(data, range, wrapper: "like", required: true, file: file.name, index: index)
                batch.append(try ArchivedLike.decode(element.object, file: file.name, index: index))
                if batch.count >= batchSize {
                    try await body(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        if !batch.isEmpty { try await body(batch) }
    }

    /// Every note of `note-tweet.js` and its parts, read once and kept (`check()` reads
    /// them, `posts()` matches them).
    package func notes() throws(ArchiveError) -> [ArchivedNote] {
        if let kept = noteCache.notes { return kept }
        var notes: [ArchivedNote] = []
        try forEach(layout.notes, wrapper: "noteTweet", required: true) { (element, _, file, index) throws(ArchiveError) in
            notes.append(try ArchivedNote.decode(element.object, file: file, index: index))
        }
        noteCache.notes = notes
        return notes
    }

    package func photoBytes(_ photo: ArchivedPhoto) throws(ArchiveError) -> Data {
        guard let file = photoFiles[photo.path] else { throw ArchiveError(.unreadable, file: photo.path, "is not in the archive") }
        return try source.read(file)
    }

    // MARK: Helpers

    /// The element ranges of one data file, checked against the count `manifest.js` gives it.
    func elementRanges(_ data: Data, file: SourceFile, path: String) throws(ArchiveError) -> [Range<Int>] {
        let ranges = try DataFile.elements(data, file: file.name)
        if let announced = manifest?.counts[path], ranges.count < announced {
            throw ArchiveError(
                .badData,
                file: file.name,
                "holds \(ranges.count) entries where manifest.js says \(announced): the archive is cut"
            )
        }
        return ranges
    }

    /// Each data file of `parts` in turn, read whole, with its element ranges; the
    /// previous one is let go before the next is read.
    private func forEachFile(
        _ parts: ArchiveLayout.Parts,
        _ body: (Data, String, [Range<Int>]) throws(ArchiveError) -> Void
    ) throws(ArchiveError) {
        for (file, path) in zip(parts.files, parts.paths) {
            let data = try source.read(file)
            try body(data, file.name, try elementRanges(data, file: file, path: path))
        }
    }

    private func forEach(
        _ parts: ArchiveLayout.Parts,
        wrapper: String,
        required: Bool,
        _ body: (DataElement, Data, String, Int) throws(ArchiveError) -> Void
    ) throws(ArchiveError) {
        for (file, path) in zip(parts.files, parts.paths) {
            let data = try source.read(file)
            for (index, range) in try elementRanges(data, file: file, path: path).enumerated() {
                let element = try DataElement.decode(data, range, wrapper: wrapper, required: required, file: file.name, index: index)
                try body(element, data, file.name, index)
            }
        }
    }
}

/// The notes `check()` read, for `posts()`: an archive's notes are a few thousand at most.
private final class NoteCache: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [ArchivedNote]?

    var notes: [ArchivedNote]? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return kept
        }
        set {
            lock.lock()
            kept = newValue
            lock.unlock()
        }
    }
}
