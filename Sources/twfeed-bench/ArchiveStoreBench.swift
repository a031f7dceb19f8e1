import Foundation
import Logging
import TwfeedArchive
import TwfeedCore
import TwfeedKit
import TwfeedStore
import TwfeedTesting

/// `twfeed-bench --archive-store [--posts N] [--small-raw]`: the store's side of `twfeed import` (issue
/// 28), without the format's parsing: N posts (default 100,000; one in 50 long, one in
/// 200 with a photo, one in 5 a reply, one in 4 with a link) and N/5 likes, handed over
/// in memory, through `ArchiveImporter` into a fresh database on disk; then the same
/// archive again (nothing to write). Prints the seconds, the rate, and the longest batch
/// (how long the reader may wait for the write lock). Each post's stored object is about
/// 1.4 KB, as a real archive's; `--small-raw` stores a 60-byte one instead, to tell what
/// writing the archive's objects costs.
enum ArchiveStoreBench {
    static func run(folder: String, arguments: [String]) async throws {
        let count = arguments.firstIndex(of: "--posts").flatMap { Int(arguments[$0 + 1]) } ?? 100_000
        let small = arguments.contains("--small-raw")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let me = ArchiveAccount(id: UserID(42), username: "me")
        let archive = FakeArchive(account: me, posts: posts(count, author: me.id, filler: small ? "" : "," + filler), likes: likes(count / 5))
        let database = try AppDatabase.open(path: "\(folder)/twfeed.sqlite")
        let importer = ArchiveImporter(
            database: database,
            images: ImageStore(root: "\(folder)/images"),
            clock: SystemClock(),
            logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        )
        let longest = LongestBatch()
        let cpuBefore = cpuSeconds()
        let first = try await importer.run(archive, dryRun: false) { _ in longest.tick() }
        let cpu = cpuSeconds() - cpuBefore
        let second = try await importer.run(archive, dryRun: false)
        print("| archive store | posts | likes | first import s | CPU s | posts/s | longest batch ms | again s |")
        print("|---|---|---|---|---|---|---|---|")
        print(
            "| \(count) posts | \(first.posts.new) new | \(first.likes.new + first.likes.updated) | "
                + String(
                    format: "%.2f | %.2f | %.0f | %.0f | %.2f |",
                    first.seconds,
                    cpu,
                    Double(count) / first.seconds,
                    longest.value * 1000,
                    second.seconds
                )
        )
    }

    /// User and system time of the process so far: a figure the other processes of a
    /// busy machine do not inflate, as they do the wall clock's.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
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

    /// The rest of an archive's post object: about 1.4 KB each, as a real `tweets.js`
    /// holds (144 MB for 100,000 posts), most of it entities and counts as strings.
    static let filler: String = {
        let fields = #"""
            "retweeted":false,"source":"<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>","entities":{"hashtags":[],"symbols":[],"user_mentions":[],"urls":[]},"display_text_range":["0","140"],"favorite_count":"3","truncated":false,"retweet_count":"0","possibly_sensitive":false,"created_at":"Wed Oct 10 20:19:24 +0000 2018","favorited":false,"lang":"en","edit_info":{"initial":{"editTweetIds":["0"],"editableUntil":"2018-10-10T21:19:24.000Z","editsRemaining":"5","isEditEligible":true}}
            """#
        return fields + ",\"pad\":\"" + String(repeating: "x", count: 800) + "\""
    }()

    static func posts(_ count: Int, author: UserID, filler: String) -> [Tweet] {
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
                rawJSON: #"{"id_str":"\#(id)","full_text":"post number \#(index)"\#(filler)}"#
            )
        }
    }

    static func likes(_ count: Int) -> [ArchivedLike] {
        (0..<count).map { index in
            ArchivedLike(id: TweetID(1_400_000_000_000_000_000 + Int64(index) * 4_194_304), text: "a liked post \(index)…")
        }
    }
}
