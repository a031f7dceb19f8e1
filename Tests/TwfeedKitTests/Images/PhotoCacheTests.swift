import Foundation
import GRDB
import Testing
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// Photos in the image cache: one row per picture URL, fetched once, shown with their
/// file, kept under the one bound with the avatars (least recently used out first), and
/// gone with the last post that shows them.
struct PhotoCacheTests {
    let fixture: ImageFixture
    let host = ScriptedImageHost()

    init() throws { fixture = try ImageFixture() }

    static let ada = Author(id: UserID(1), username: "ada", name: "Ada", profileImageURL: nil)

    static func url(_ n: Int) -> String { "https://pbs.twimg.com/media/p\(n).png" }

    static func post(_ id: Int64, photos: [Int], kind: Media.Kind = .photo) -> Tweet {
        Tweet(id: TweetID(id), authorID: ada.id, createdAt: Date(timeIntervalSince1970: Double(id)), text: "post \(id)",
              media: photos.enumerated().map { position, n in
                  Media(key: "3_\(id)_\(position)", kind: kind, imageURL: url(n), width: 640, height: 480, altText: "picture \(n)")
              })
    }

    func store(_ tweets: [Tweet]) async throws {
        _ = try await fixture.database.storePage(TimelinePage(tweets: tweets, authors: [Self.ada], nextPageToken: nil),
                                                 feed: .home, state: SyncState(feed: .home), now: fixture.clock.now())
    }

    func fetcher(_ edit: (inout TwfeedConfig.Images) -> Void = { _ in }) -> PhotoFetcher {
        PhotoFetcher(ImageFetchCore(config: fixture.config(edit), database: fixture.database, store: fixture.store, clock: fixture.clock,
                                    transport: host, logger: fixture.logger))
    }

    func photoRows() throws -> [String] {
        try fixture.database.inspect { db in try String.fetchAll(db, sql: "SELECT url FROM photo ORDER BY url") }
    }

    @Test func aPictureShownByTwoPostsIsOneRowFetchedOnceAndShownWithItsFile() async throws {
        defer { fixture.remove() }
        for n in 1 ... 3 { host.image(Self.url(n), body: ImageFixture.png(n, size: 300), etag: "\"p\(n)\"") }
        try await store([Self.post(10, photos: [1, 2]), Self.post(11, photos: [2]), Self.post(12, photos: [3], kind: .video)])
        #expect(try photoRows() == [Self.url(1), Self.url(2), Self.url(3)])

        let first = try await fetcher().fetchDue()
        #expect(first.fetched == 3 && first.requests == 3 && first.written == 3 && first.rejected == 0 && first.failed == 0, "\(first)")
        #expect(Set(host.urls) == [Self.url(1), Self.url(2), Self.url(3)])
        #expect(host.requests.allSatisfy { $0.maxResponseBytes == 5 << 20 })
        #expect(try await fixture.database.imageCacheTotals() == (3, 900))
        #expect(fixture.sink.events("photo.cycle").first?.contains("fetched=3") == true)

        // Shown again in a newer page, and passes later: nothing is asked again.
        fixture.clock.advance(by: 30 * 86_400)
        try await store([Self.post(10, photos: [1, 2]), Self.post(11, photos: [2])])
        #expect(try await fetcher().fetchDue() == PhotoFetcher.Cycle())
        #expect(host.requests.count == 3)

        // Readers get each picture's file, in the post's order.
        let items = try await fixture.database.feedItems(.home, limit: 10, avatarPath: { fixture.store.cachedPath($0) })
        let ten = try #require(items.first { $0.tweet.id == TweetID(10) })
        #expect(ten.media.map(\.media.altText) == ["picture 1", "picture 2"])
        for (n, item) in zip([1, 2], ten.media) {
            let path = try #require(item.path)
            #expect(FileManager.default.contents(atPath: path) == Data(ImageFixture.png(n, size: 300)))
            #expect(item.file.flatMap(fixture.store.path(of:)) == path)
        }
        let eleven = try #require(items.first { $0.tweet.id == TweetID(11) })
        #expect(eleven.media.first?.file == ten.media.last?.file)
    }

    @Test func aPictureNotOnDiskHasNoPathAndAFailureIsRetriedWithBackoff() async throws {
        defer { fixture.remove() }
        host.answer(Self.url(1)) { _ in APIResponse(status: 503) }
        try await store([Self.post(10, photos: [1])])
        let first = try await fetcher().fetchDue()
        #expect(first.failed == 1 && first.fetched == 0)
        let item = try #require(try await fixture.database.feedItems(.home, limit: 1, avatarPath: { fixture.store.cachedPath($0) }).first)
        #expect(item.media.count == 1 && item.media[0].file == nil && item.media[0].path == nil)
        let row = try #require(try await fixture.database.photo(Self.url(1)))
        let retryIn = try #require(row.retryAt).timeIntervalSince(fixture.clock.now())
        #expect(row.failures == 1 && (150 ... 300).contains(retryIn) && row.lastError?.reason == "http_503", "\(row)")
        #expect(try await fixture.database.nextPhotoDue() == row.retryAt)
        #expect(fixture.sink.events("photo.failed").count == 1)

        // Not before the retry is due; then it comes.
        #expect(try await fetcher().fetchDue() == PhotoFetcher.Cycle())
        host.image(Self.url(1), body: ImageFixture.png(1), etag: "\"p1\"")
        fixture.clock.advance(by: 301)
        #expect(try await fetcher().fetchDue().fetched == 1)
        #expect(try await fixture.database.photo(Self.url(1))?.failures == 0)
    }

    @Test func aRefusedPictureIsLoggedOnceAndTriedAgainOnlyUnderANewPolicy() async throws {
        defer { fixture.remove() }
        let elsewhere = "https://images.example/p.png"
        try await store([Tweet(id: TweetID(10), authorID: Self.ada.id, createdAt: Date(timeIntervalSince1970: 10), text: "x",
                               media: [Media(key: "3_1", kind: .photo, imageURL: elsewhere)])])
        #expect(try await fetcher().fetchDue().rejected == 1)
        #expect(host.requests.isEmpty, "a host not allowed is never asked")
        #expect(try await fixture.database.photo(elsewhere)?.rejectedReason == "host_not_allowed")
        #expect(try await fetcher().fetchDue() == PhotoFetcher.Cycle())
        #expect(fixture.sink.events("photo.rejected").count == 1)
        host.image(elsewhere, body: ImageFixture.png(7), etag: "\"x\"")
        let allowed = try await fetcher { $0.allowedHosts.append("images.example") }.fetchDue()
        #expect(allowed.fetched == 1)
    }

    @Test func photosAndAvatarsShareTheBoundLeastRecentlyUsedFirstAndAnEvictedPhotoWaitsToBeShownAgain() async throws {
        defer { fixture.remove() }
        // An avatar used first, then two photos shown a minute apart each.
        let avatar = try await fixture.store.put(ImageFixture.png(100, size: 1000), format: .png)
        let subject = AppDatabase.ImageSubject(authorID: UserID(5), sourceURL: "https://pbs.twimg.com/a_normal.png", size: "normal",
                                               url: "https://pbs.twimg.com/a_normal.png", usedAt: fixture.clock.now())
        _ = try await fixture.database.recordImageFetched(subject, file: avatar.file, bytes: 1000, etag: nil, lastModified: nil,
                                                          now: fixture.clock.now())
        for n in 1 ... 2 {
            fixture.clock.advance(by: 60)
            host.image(Self.url(n), body: ImageFixture.png(n, size: 1000), etag: "\"p\(n)\"")
            try await store([Self.post(Int64(10 + n), photos: [n])])
            try await fetcher().fetchDue()
        }
        #expect(try await fixture.database.imageCacheTotals() == (3, 3000))
        let janitor = ImageJanitor(store: fixture.store, database: fixture.database, clock: fixture.clock, capBytes: 1500,
                                   logger: fixture.logger)
        let report = try await janitor.sweep()
        #expect(report.evictedFiles == 2 && report.files == 1)
        #expect(try await fixture.database.profileImage(UserID(5))?.file == nil, "the avatar was the least recently used")
        let evicted = try await fixture.database.photo(Self.url(1))
        #expect(evicted?.file == nil && evicted?.evictedAt != nil)
        #expect(try await fixture.database.photo(Self.url(2))?.file != nil, "the photo shown last stays")
        #expect(try await fixture.database.imageCacheTotals() == (1, 1000))

        // Evicted: not fetched again until its post is shown again.
        #expect(try await fetcher().fetchDue() == PhotoFetcher.Cycle())
        fixture.clock.advance(by: 60)
        try await store([Self.post(11, photos: [1])])
        #expect(try await fetcher().fetchDue().fetched == 1)
        #expect(host.requests.count == 3)
    }

    @Test func aPhotoGoesWithTheLastPostShowingItAndItsFileWithTheJanitor() async throws {
        defer { fixture.remove() }
        for n in 1 ... 2 { host.image(Self.url(n), body: ImageFixture.png(n, size: 500), etag: "\"p\(n)\"") }
        try await store([Self.post(10, photos: [1]), Self.post(11, photos: [1]), Self.post(12, photos: [2])])
        try await fetcher().fetchDue()
        #expect(try await fixture.database.imageCacheTotals() == (2, 1000))
        // One of two posts showing p1 goes: p1 stays. The only post showing p2 goes: p2 goes.
        _ = try fixture.database.tamper { db in try db.execute(sql: "DELETE FROM tweet WHERE id IN (10, 12)") }
        #expect(try photoRows() == [Self.url(1)])
        #expect(try await fixture.database.imageCacheTotals() == (1, 500))
        let janitor = ImageJanitor(store: fixture.store, database: fixture.database, clock: fixture.clock, capBytes: 1 << 20,
                                   logger: fixture.logger)
        #expect(try await janitor.sweep().orphanFiles == 1)
        #expect(fixture.store.scan().files.count == 1)
        // An edit that changes a post's picture drops the old one too.
        try await store([Self.post(11, photos: [2])])
        #expect(try photoRows() == [Self.url(2)])
    }

    @Test func aLostFileIsFetchedAgainAtOnce() async throws {
        defer { fixture.remove() }
        host.image(Self.url(1), body: ImageFixture.png(1), etag: "\"p1\"")
        try await store([Self.post(10, photos: [1])])
        try await fetcher().fetchDue()
        let file = try #require(try await fixture.database.photo(Self.url(1))?.file)
        fixture.store.remove(file)
        let janitor = ImageJanitor(store: fixture.store, database: fixture.database, clock: fixture.clock, capBytes: 1 << 20,
                                   logger: fixture.logger)
        #expect(try await janitor.sweep().missingFiles == 1)
        #expect(try await fetcher().fetchDue().fetched == 1)
        #expect(fixture.store.exists(file))
    }

    @Test(.timeLimit(.minutes(1))) func aPageWithAPhotoWakesTheRunningFetcher() async throws {
        defer { fixture.remove() }
        host.image(Self.url(1), body: ImageFixture.png(1), etag: "\"p1\"")
        try await store([Self.post(10, photos: [1])])
        let fetcher = fetcher()
        let running = Task { try await fetcher.run() }
        // Idle after its first pass: asleep on the clock until the next hour.
        await host.waitForRequests(1)
        await fixture.clock.waitForSleepers(1)
        host.image(Self.url(2), body: ImageFixture.png(2), etag: "\"p2\"")
        try await store([Self.post(11, photos: [2])])
        // The database observation rings; the next pass fetches it, then sleeps again.
        await host.waitForRequests(2)
        await fixture.clock.waitForSleepers(1)
        #expect(host.urls.last == Self.url(2))
        #expect(try await fixture.database.photo(Self.url(2))?.file != nil)
        running.cancel()
        try await running.value
    }

    @Test func aVersion14DatabaseKeepsItsMediaAndGetsItsPhotoRows() async throws {
        let path = "\(fixture.folder)/old.sqlite"
        defer { fixture.remove() }
        let index = try #require(AppDatabase.migrations.firstIndex { $0.identifier == "v15: photos" })
        let queue = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(queue, upTo: AppDatabase.migrations[index - 1].identifier)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO user (id, username, name, updatedAt) VALUES (1, 'ada', 'Ada', 0)")
            try db.execute(sql: "INSERT INTO tweet (id, authorId, createdAt, text, raw, fetchedAt) VALUES (7, 1, 7, 'x', '{}', 0)")
            try db.execute(sql: """
                INSERT INTO media (tweetId, position, mediaKey, kind, imageURL, width, height, altText, file)
                VALUES (7, 0, '3_1', 'photo', 'https://pbs.twimg.com/media/a.png', 10, 20, 'alt', NULL),
                       (7, 1, '3_2', 'photo', 'https://pbs.twimg.com/media/a.png', 10, 20, NULL, NULL)
                """)
        }
        try queue.close()
        let database = try AppDatabase.open(path: path)
        let item = try #require(try await database.feedItem(TweetID(7)))
        #expect(item.media.map(\.media.altText) == ["alt", nil])
        #expect(try await database.photo("https://pbs.twimg.com/media/a.png") != nil)
    }
}
