import Foundation
import TwfeedCore

/// What the libFuzzer targets (Fuzz/FuzzArchiveData, Fuzz/FuzzArchiveZip) run: every
/// reading step on one input, refusals swallowed (each must be an `ArchiveError`).
package enum ArchiveFuzzing {
    package static func dataFile(_ data: Data) {
        let file = "data/tweets.js"
        var notes: [ArchivedNote] = []
        if let ranges = try? DataFile.elements(data, file: file) {
            for (index, range) in ranges.enumerated() {
                if let element = try? DataElement.decode(data, range, wrapper: "noteTweet", required: true, file: file, index: index),
                    let note = try? ArchivedNote.decode(element.object, file: file, index: index)
                {
                    notes.append(note)
                }
            }
            var index = NoteIndex(notes)
            for (number, range) in ranges.enumerated() {
                guard let element = try? DataElement.decode(data, range, wrapper: "tweet", required: false, file: file, index: number)
                else { continue }
                _ = try? PostDecoder.decode(element, raw: element.rawText(data), account: UserID(1), notes: &index, file: file, index: number)
                if let post = try? DataElement.decodePost(data, range, file: file, index: number) {
                    _ = try? PostDecoder.decode(post, raw: post.rawText(data), account: UserID(1), notes: &index, file: file, index: number)
                }
                _ = try? ArchivedLike.decode(element.object, file: file, index: number)
                _ = try? ArchiveAccount.decode(element.object, file: file)
            }
        }
        _ = try? ArchiveManifest.decode(data, file: "data/manifest.js")
    }

    /// Small limits, so a fuzzed header cannot make the target allocate gigabytes.
    package static let limits = ArchiveLimits(maxTotalBytes: 64 << 20, maxRatio: 100, ratioFloorBytes: 1 << 16)

    /// Opens the file as an archive and reads all of it (`check()`: every post, like,
    /// note and photo).
    package static func zip(path: String) {
        guard let archive = try? ArchiveOpener.openArchive(path: path, limits: limits) else { return }
        _ = try? archive.checkAll()
    }
}
