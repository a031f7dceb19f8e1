import Foundation
import GRDB
import Logging
import Testing
import TwfeedArchive
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore
import TwfeedTesting

/// `twfeed import`'s work: an archive checked whole, then stored as `posts` and `likes`
/// with its photos in the cache, for nothing, once, and only the account's own.
final class ArchiveImporterTests {
    static let me = ArchiveAccount(id: UserID(42), username: "me", displayName: "Me")
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3, 4]
    static let photoURL = "https://pbs.twimg.com/media/FxYz.png"

    let folder: ScratchFolder
    let clock = ManualClock()
    let sink = MemorySink()

    init() throws {
        folder = try ScratchFolder(prefix: "twfeed-import")
    }

    var databasePath: String { "\(folder.path)/twfeed.sqlite" }
    var cachePath: String { "\(folder.path)/images" }

    func importer(_ database: AppDatabase) -> ArchiveImporter {
        let logger = Logger(label: "import") { [sink] _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
        var importer = ArchiveImporter(database: database, images: ImageStore(root: cachePath), clock: clock, logger: logger)
        importer.batchSize = 3
        return importer
    }

    static func archive(account: ArchiveAccount = me, failure: ArchiveError? = nil, extraPost: Bool = false) -> FakeArchive {
        let photo = Media(key: "3_9", kind: .photo, imageURL: photoURL, width: 4, height: 3)
        var posts = (1...7).map { id in
            Tweet(
                id: TweetID(Int64(id)), authorID: account.id, createdAt: Date(timeIntervalSince1970: 1_400_000_000 + Double(id)),
                text: "post \(id) &amp; more", media: id == 7 ? [photo] : [], rawJSON: #"{"id_str":"\#(id)"}"#
            )
        }
        if extraPost {
            posts.append(Tweet(id: TweetID(8), authorID: account.id, createdAt: Date(timeIntervalSince1970: 1_500_000_000), text: "new one"))
        }
        return FakeArchive(
            account: account,
            posts: posts,
            likes: [
                ArchivedLike(id: TweetID(1_506_267_366_391_803_904), text: "<script>alert(1)</script> liked", expandedURL: "https://x.com/i/web/status/1"),
                ArchivedLike(id: TweetID(4), text: nil),
            ],
            photos: [
                (ArchivedPhoto(tweetID: TweetID(7), path: "data/tweets_media/7-FxYz.png", mediaName: "FxYz.png", byteCount: png.count), Data(png)),
                (ArchivedPhoto(tweetID: TweetID(7), path: "data/tweets_media/7-clip.mp4", mediaName: "clip.mp4", byteCount: 3), Data([0, 0, 0])),
            ],
            ignoredFiles: ["data/direct-messages.js", "data/deleted-tweets.js"],
            failure: failure
        )
    }

    @Test func anArchiveIsStoredWithItsLikesAndPhotosForNothing() async throws {
        let database = try AppDatabase.open(path: databasePath)
        let summary = try await importer(database).run(Self.archive(), dryRun: false)
        #expect(summary.posts == ArchiveCounts(new: 7))
        // Like 4 is one of my posts: it is tagged, not stored twice.
        #expect(summary.likes == ArchiveCounts(new: 1, updated: 1))
        #expect(summary.photos == 1)
        #expect(try await database.feedStats(.posts).tweets == 7)
        #expect(try await database.feedStats(.likes).tweets == 2)
        let record = try #require(try await database.photo(Self.photoURL))
        let file = try #require(record.file)
        #expect(FileManager.default.contents(atPath: "\(cachePath)/\(file)") == Data(Self.png))
        // The account the database did not know yet is the archive's.
        #expect(try await database.account()?.userID == Self.me.id)
        let spent = try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM spend") }
        #expect(spent == 0)
        #expect(sink.events("import.finished").count == 1)
    }

    @Test func theSameArchiveAgainChangesNothingAndANewerOneAddsOnlyWhatIsNew() async throws {
        let database = try AppDatabase.open(path: databasePath)
        _ = try await importer(database).run(Self.archive(), dryRun: false)
        let before = try await Self.content(database)
        let again = try await importer(database).run(Self.archive(), dryRun: false)
        #expect(again.posts == ArchiveCounts(unchanged: 7))
        #expect(again.likes == ArchiveCounts(unchanged: 2))
        #expect(again.photos == 0)
        #expect(try await Self.content(database) == before)
        let newer = try await importer(database).run(Self.archive(extraPost: true), dryRun: false)
        #expect(newer.posts == ArchiveCounts(new: 1, unchanged: 7))
    }

    /// A bad archive is one line naming the file inside it, exit 65; the database's
    /// content is what it was.
    @Test func aBadArchiveIsRefusedAndChangesNothing() async throws {
        let database = try AppDatabase.open(path: databasePath)
        try await database.saveAccount(Account(userID: Self.me.id, username: "me"))
        let before = try await Self.content(database)
        let bad = Self.archive(failure: ArchiveError(.badData, file: "data/tweets-part1.js", "not window.YTD.<name>.partN = [JSON]"))
        let error = await #expect(throws: TwfeedError.self) { try await self.importer(database).run(bad, dryRun: false) }
        #expect(error?.code.exitCode == 65)
        #expect(error?.message == "data/tweets-part1.js: not window.YTD.<name>.partN = [JSON]")
        #expect(try await Self.content(database) == before)
        #expect(sink.events("import.refused").count == 1)
    }

    @Test func anotherAccountsArchiveIsRefusedNamingBoth() async throws {
        let database = try AppDatabase.open(path: databasePath)
        try await database.saveAccount(Account(userID: UserID(7), username: "alice"))
        let before = try await Self.content(database)
        let theirs = Self.archive(account: ArchiveAccount(id: UserID(99), username: "bob"))
        let error = await #expect(throws: TwfeedError.self) { try await self.importer(database).run(theirs, dryRun: false) }
        #expect(error?.code.exitCode == 65)
        let message = error?.message ?? ""
        #expect(message.hasPrefix("data/account.js: ") && message.contains("@bob") && message.contains("@alice"))
        #expect(try await Self.content(database) == before)
    }

    @Test func aDryRunCountsEverythingAndStoresNothing() async throws {
        let database = try AppDatabase.open(path: databasePath)
        try await database.saveAccount(Account(userID: Self.me.id, username: "me"))
        let before = try await Self.content(database)
        let summary = try await importer(database).run(Self.archive(), dryRun: true)
        #expect(summary.posts == ArchiveCounts(new: 7))
        #expect(summary.likes == ArchiveCounts(new: 1, updated: 1))
        #expect(summary.photos == 1)
        #expect(try await Self.content(database) == before)
        #expect(!FileManager.default.fileExists(atPath: cachePath))
    }

    /// `--json`: exactly the contract's keys, counts as numbers, the ignored files listed.
    @Test func theJSONSummaryHasTheContractsShape() async throws {
        let database = try AppDatabase.open(path: databasePath)
        let summary = try await importer(database).run(Self.archive(), dryRun: false)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["account", "posts", "likes", "photos", "ignored", "seconds"])
        #expect(object["account"] as? String == "me")
        #expect(object["posts"] as? [String: Int] == ["new": 7, "updated": 0, "unchanged": 0])
        #expect(object["likes"] as? [String: Int] == ["new": 1, "updated": 1, "unchanged": 0])
        #expect(object["photos"] as? Int == 1)
        #expect(object["ignored"] as? [String] == ["data/direct-messages.js", "data/deleted-tweets.js"])
        #expect(object["seconds"] is Double || object["seconds"] is Int)
        #expect(!summary.json.contains("\n"))
    }

    /// A like never rewrites a post stored before, through the real reader: like.js's
    /// `fullText` is the raw text, ending in the photo's `t.co` link, so it reads as a
    /// "longer" text than both your post's (its media link taken off) and the API's. Each
    /// keeps its text and gains the tag; a like of a post not stored is stored from it.
    @Test func aLikeOfAStoredPostOnlyAddsTheTagThroughTheRealReader() async throws {
        let database = try AppDatabase.open(path: databasePath)
        try await database.saveAccount(Account(userID: Self.me.id, username: "me"))
        let fromAPI = Tweet(
            id: TweetID(1_600_000_000_000_000_500), authorID: UserID(500), createdAt: Date(timeIntervalSince1970: 1_660_000_000),
            text: "a sunset from the API", rawJSON: #"{"id":"1600000000000000500"}"#
        )
        try await database.storePage(
            TimelinePage(tweets: [fromAPI], authors: [Author(id: UserID(500), username: "friend", name: "Friend")], nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Date()
        )
        let mine = TweetID(1_600_000_000_000_000_001)
        let unstored = TweetID(1_600_000_000_000_000_900)
        var writer = ArchiveWriter(
            account: Self.me,
            posts: [
                ArchiveWriter.Post(
                    id: mine, createdAt: Date(timeIntervalSince1970: 1_660_000_100), text: "caption",
                    photos: [ArchiveWriter.Photo(mediaID: "77", name: "Fq1.jpg", bytes: nil)]
                )
            ]
        )
        writer.likes = [
            // As X writes them: the post's raw text, its photo's link at the end.
            ArchivedLike(id: mine, text: "caption https://t.co/m00000001", expandedURL: "https://twitter.com/i/web/status/\(mine)"),
            ArchivedLike(id: fromAPI.id, text: "a sunset from the API https://t.co/Xy12Ab34", expandedURL: "https://twitter.com/i/web/status/\(fromAPI.id)"),
            ArchivedLike(id: unstored, text: "never seen https://t.co/Zz9", expandedURL: "https://twitter.com/i/web/status/\(unstored)"),
        ]
        let path = "\(folder.path)/archive"
        try writer.write(to: path, as: .folder)

        let summary = try await importer(database).run(try ArchiveOpener.open(path: path), dryRun: false)
        #expect(summary.posts == ArchiveCounts(new: 1))
        #expect(summary.likes == ArchiveCounts(new: 1, updated: 2))
        func stored() async throws -> [TweetID: (text: String, feeds: [Feed])] {
            let items = try await database.feedItems(.likes, limit: 10)
            return Dictionary(uniqueKeysWithValues: items.map { ($0.tweet.id, ($0.tweet.text, $0.feeds)) })
        }
        var likes = try await stored()
        #expect(likes[mine]?.text == "caption" && likes[mine]?.feeds == [.posts, .likes])
        #expect(likes[fromAPI.id]?.text == "a sunset from the API" && likes[fromAPI.id]?.feeds == [.home, .likes])
        #expect(likes[unstored]?.text == "never seen https://t.co/Zz9" && likes[unstored]?.feeds == [.likes])
        let raw = try await database.read { db in try String.fetchOne(db, sql: "SELECT raw FROM tweet WHERE id = ?", arguments: [fromAPI.id.rawValue]) }
        #expect(raw == fromAPI.rawJSON, "the API's answer is kept")

        // Again: nothing to do, and still the stored texts.
        let again = try await importer(database).run(try ArchiveOpener.open(path: path), dryRun: false)
        #expect(again.posts == ArchiveCounts(unchanged: 1) && again.likes == ArchiveCounts(unchanged: 3))
        likes = try await stored()
        #expect(likes[mine]?.text == "caption" && likes[fromAPI.id]?.text == "a sunset from the API")
    }

    /// The import is a second writer beside the daemon: each waits on the other's
    /// short transactions, and both get everything stored.
    @Test func itImportsWhileAnotherConnectionWrites() async throws {
        let daemon = try AppDatabase.open(path: databasePath)
        try await daemon.saveAccount(Account(userID: Self.me.id, username: "me"))
        let importing = try AppDatabase.open(path: databasePath)
        let author = Author(id: UserID(500), username: "friend", name: "Friend")
        async let polling: Void = {
            for page in 0..<20 {
                let tweet = Tweet(id: TweetID(Int64(1_000 + page)), authorID: author.id, createdAt: Date(), text: "home \(page)")
                try await daemon.storePage(
                    TimelinePage(tweets: [tweet], authors: [author], nextPageToken: nil), feed: .home, state: SyncState(feed: .home), now: Date())
            }
        }()
        let summary = try await importer(importing).run(Self.archive(), dryRun: false)
        try await polling
        #expect(summary.posts.new == 7)
        #expect(try await daemon.feedStats(.home).tweets == 20)
        #expect(try await daemon.feedStats(.posts).tweets == 7)
    }

    /// The tables an import may write, as text.
    static func content(_ database: AppDatabase) async throws -> [String] {
        try await database.read { db in
            var lines: [String] = []
            for table in ["tweet", "feedMembership", "feedCount", "media", "link", "photo", "user", "account", "spend"] {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2") { lines.append("\(table) \(row)") }
            }
            return lines
        }
    }
}
