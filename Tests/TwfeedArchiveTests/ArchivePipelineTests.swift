import Foundation
import Testing
import TwfeedBase
import TwfeedCore

@testable import TwfeedArchive

/// The import on both cores: `check()` splits each file across workers and still names the
/// first bad entry; `posts()` decodes the next batch while the caller stores this one and
/// still hands over every post once, in the archive's order, with its note.
@Suite struct ArchivePipelineTests {
    static let start = Date(timeIntervalSince1970: 1_600_000_000)

    /// `count` posts, in parts of `perPart`; post 4 a long post whose note ends in "zanzibar".
    func written(_ scratch: String, count: Int, perPart: Int) throws -> (path: String, writer: ArchiveWriter) {
        let posts = (0..<count).map { index in
            ArchiveWriter.Post(
                id: TweetID(Int64(1_300_000_000_000_000_000) + Int64(index) * 4_194_304_000),
                createdAt: Self.start.addingTimeInterval(Double(index) * 60),
                text: index == 4 ? String(repeating: "a long walk by the river, ", count: 14) + "zanzibar" : "post number \(index) & more"
            )
        }
        var writer = ArchiveWriter(account: ArchiveAccount(id: UserID(77), username: "walker"), posts: posts)
        writer.postsPerPart = perPart
        let path = scratch + "/archive"
        try writer.write(to: path, as: .folder)
        return (path, writer)
    }

    /// Makes the `created_at` of post `index` unreadable in whichever part holds it.
    func breakDate(of index: Int, in path: String) throws {
        let date = Timestamp.twitterDate(Self.start.addingTimeInterval(Double(index) * 60))
        for name in try FileManager.default.contentsOfDirectory(atPath: path + "/data") where name.hasPrefix("tweets") {
            let file = URL(fileURLWithPath: path + "/data/" + name)
            let text = try String(contentsOf: file, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "\"\(date)\"", with: "\"not a date\"").utf8).write(to: file)
        }
    }

    @Test func checkNamesTheFirstBadPostWhicheverWorkerFindsIt() async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let (path, _) = try written(scratch, count: 40, perPart: 40)
        // Entry 31 lies in the second worker's half, entry 6 in the first's.
        try breakDate(of: 30, in: path)
        let late = await ArchiveFixture.refusal { try await ArchiveOpener.open(path: path).check() }
        #expect(late?.file == "data/tweets.js")
        #expect(late?.description.contains("entry 31 (post") == true, "\(String(describing: late))")
        try breakDate(of: 5, in: path)
        for _ in 0..<5 {
            let early = await ArchiveFixture.refusal { try await ArchiveOpener.open(path: path).check() }
            #expect(early?.description.contains("entry 6 (post") == true, "\(String(describing: early))")
        }
    }

    @Test func aSplitCheckVisitsEveryEntryOnceAndThrowsTheEarliest() throws {
        let ranges = (0..<101).map { $0..<($0 + 1) }
        let seen = Seen()
        try SplitCheck.forEach(ranges, workers: 2) { range, index in seen.add(index, range) }
        #expect(seen.indices == Array(0..<101))
        #expect(throws: ArchiveError(.badData, file: "f", "entry 3")) {
            try SplitCheck.forEach(ranges, workers: 2) { (_, index) throws(ArchiveError) in
                if index == 3 || index == 90 { throw ArchiveError(.badData, file: "f", "entry \(index)") }
            }
        }
    }

    @Test func postsArriveOnceInOrderAcrossPartsWithTheirNotes() async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let (path, writer) = try written(scratch, count: 11, perPart: 5)
        let archive = try ArchiveOpener.open(path: path)
        try await archive.check()
        var sizes: [Int] = []
        var posts: [Tweet] = []
        try await archive.posts(batchSize: 3) { batch in
            sizes.append(batch.count)
            posts += batch
        }
        #expect(sizes == [3, 3, 3, 2])
        #expect(posts.map(\.id) == writer.posts.map(\.id))
        #expect(posts[4].text.hasSuffix("zanzibar"), "the long post's whole text, from its note")
        // A second pass (a second import) matches the note again.
        var again: [Tweet] = []
        try await archive.posts(batchSize: 4) { again += $0 }
        #expect(again.map(\.text) == posts.map(\.text))
    }

    @Test func aStoreThatFailsStopsThePosts() async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let (path, _) = try written(scratch, count: 11, perPart: 5)
        let archive = try ArchiveOpener.open(path: path)
        var batches = 0
        await #expect(throws: StoreFailed.self) {
            try await archive.posts(batchSize: 3) { _ in
                batches += 1
                if batches == 2 { throw StoreFailed() }
            }
        }
        #expect(batches == 2, "no batch is handed over after the store failed")
    }

    struct StoreFailed: Error {}

    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [Int] = []
        func add(_ index: Int, _ range: Range<Int>) {
            lock.lock()
            all.append(index)
            lock.unlock()
            #expect(range == index..<(index + 1))
        }
        var indices: [Int] {
            lock.lock()
            defer { lock.unlock() }
            return all.sorted()
        }
    }
}
