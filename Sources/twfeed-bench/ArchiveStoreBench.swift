import Foundation
import Logging
import TwfeedArchive
import TwfeedCore
import TwfeedKit
import TwfeedStore
import TwfeedTesting

/// `twfeed-bench --archive-store [--posts N]`: the store's side of `twfeed import` (issue
/// 28), without the format's parsing: N posts (default 100,000; one in 50 long, one in
/// 200 with a photo, one in 5 a reply, one in 4 with a link) and N/5 likes, handed over
/// in memory, through `ArchiveImporter` into a fresh database on disk; then the same
/// archive again (nothing to write). Prints the seconds, the rate, and the longest batch
/// (how long the reader may wait for the write lock).
enum ArchiveStoreBench {
    static func run(folder: String, arguments: [String]) async throws {
        let count = arguments.firstIndex(of: "--posts").flatMap { Int(arguments[$0 + 1]) } ?? 100_000
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let me = ArchiveAccount(id: UserID(42), username: "me")
        let archive = FakeArchive(account: me, posts: posts(count, author: me.id), likes: likes(count / 5))
        let database = try AppDatabase.open(path: "\(folder)/twfeed.sqlite")
        let importer = ArchiveImporter(
            database: database,
            images: ImageStore(root: "\(folder)/images"),
            clock: SystemClock(),
            logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        )
        let longest = LongestBatch()
        let first = try await importer.run(archive, dryRun: false) { _ in longest.tick() }
        let second = try await importer.run(archive, dryRun: false)
        print("| archive store | posts | likes | first import s | posts/s | longest batch ms | again s |")
        print("|---|---|---|---|---|---|---|")
        print(
            "| \(count) posts | \(first.posts.new) new | \(first.likes.new + first.likes.updated) | "
                + String(format: "%.2f | %.0f | %.0f | %.2f |", first.seconds, Double(count) / first.seconds, longest.value * 1000, second.seconds)
        )
    }

    /// The longest gap between two batches' progress reports.
    final class LongestBatch: @unchecked Sendable {
        private var last = ContinuousClock.now
        private(set) var value = 0.0

        func tick() {
            let now = ContinuousClock.now
            value = max(value, (now - last).inSeconds)
            last = now
        }
    }

    static func posts(_ count: Int, author: UserID) -> [Tweet] {
        let base: Int64 = 1_300_000_000_000_000_000
        return (0..<count).map { index in
            let id = TweetID(base + Int64(index) * 4_194_304)
            var text = "post number \(index) about coffee, trains and the weather &amp; more"
            if index % 50 == 0 { text += String(repeating: " and then a long post goes on", count: 60) }
            var links: [TweetLink] = []
            if index % 4 == 0 {
                links = [TweetLink(url: "https://t.co/x\(index)", expandedURL: "https://example.com/\(index)", displayURL: "example.com/\(index)")]
                text += " https://t.co/x\(index)"
            }
            let media =
                index % 200 == 0 ? [Media(key: "3_\(index)", kind: .photo, imageURL: "https://pbs.twimg.com/media/p\(index).jpg")] : []
            return Tweet(
                id: id,
                authorID: author,
                createdAt: id.snowflakeDate,
                text: text,
                inReplyToID: index % 5 == 1 ? TweetID(id.rawValue - 4_194_304) : nil,
                media: media,
                links: links,
                rawJSON: #"{"id_str":"\#(id)","full_text":"post number \#(index)"}"#
            )
        }
    }

    static func likes(_ count: Int) -> [ArchivedLike] {
        (0..<count).map { index in
            ArchivedLike(id: TweetID(1_400_000_000_000_000_000 + Int64(index) * 4_194_304), text: "a liked post \(index)…")
        }
    }
}
