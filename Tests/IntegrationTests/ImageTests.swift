import Foundation
import Testing
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// The profile image cache against the emulator's image host, through the daemon the
/// factory builds: one download per picture, 304 revalidation, the cap, drift repair,
/// refusals, and a kill in the middle of a download.
@Suite(.serialized, .tags(.integration))
struct ImageTests {
    /// The emulator's pictures are `http://127.0.0.1:PORT/...`.
    static func imagesConfig(_ extra: [String: JSONValue] = [:]) -> [String: JSONValue] {
        var images: [String: JSONValue] = ["allowInsecureLoopback": .bool(true), "allowedHosts": .array([.string("127.0.0.1")])]
        for (key, value) in extra { images[key] = value }
        return ["images": .object(images)]
    }

    /// Authors stored with a picture URL.
    static func authorIDs(_ database: AppDatabase) throws -> [String] {
        try database.inspect { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM user WHERE profileImageURL IS NOT NULL ORDER BY id").map(String.init)
        }
    }

    /// What `twfeed feed` shows as an item's avatar: the cached file, if on disk.
    static func avatarPath(_ config: TwfeedConfig) -> @Sendable (String) -> String? {
        let images = ImageStore(root: config.storage.imageCache)
        return { images.exists($0) ? images.path(of: $0) : nil }
    }

    static func imageRequests(_ world: TestWorld) -> [EmulatorRequestRecord] {
        world.emulator.requests.filter { $0.endpoint == "images" }
    }

    /// Every regular file under the cache folder, relative.
    static func filesOnDisk(_ folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let name = enumerator.nextObject() as? String {
            var info = stat()
            if lstat("\(folder)/\(name)", &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { files.append(name) }
        }
        return files.sorted()
    }

    @Test func eachPictureIsDownloadedOnceAcrossARestartAndRevalidatedWithA304() async throws {
        let world = try TestWorld(tweets: 60, extraConfig: Self.imagesConfig())
        let clock = ManualClock(now: Date())
        let config = try world.config
        var daemon = try world.daemon(clock: clock)
        for syncer in daemon.syncers { try await syncer.poll() }
        let authors = try Self.authorIDs(daemon.database)
        #expect(authors.count >= 10)
        // Three authors share one picture.
        let shared = ImageFixtureBytes.png
        for id in authors.prefix(3) { world.emulator.setProfileImage(ofUser: id, bytes: shared) }

        var fetcher = try #require(daemon.imageFetcher)
        let first = try await fetcher.fetchDue()
        #expect(first.fetched == authors.count && first.requests == authors.count, "\(first)")
        #expect(first.rejected == 0 && first.failed == 0 && first.written == authors.count - 2)
        #expect(world.emulator.requestCount(pathContains: "/profile_images/") == authors.count)
        let onDisk = Self.filesOnDisk(config.storage.imageCache)
        #expect(onDisk.count == authors.count - 2)

        // Readers get the files: the library call and `twfeed feed --json`.
        let items = try await daemon.database.feedItems(.home, limit: 1000, avatarPath: Self.avatarPath(config))
        for item in items {
            let path = try #require(item.avatarPath, "\(item.tweet.authorID)")
            let expected = try #require(world.emulator.profileImageBytes(ofUser: item.tweet.authorID.description))
            #expect(FileManager.default.contents(atPath: path) == Data(expected))
            #expect(path.hasPrefix(config.storage.imageCache + "/"))
        }
        let feed = try Binary.run(["feed", "home", "--limit", "5", "--json", "--config", world.configPath])
        #expect(feed.status == 0, "\(feed.stderr)")
        for line in feed.stdout.split(separator: "\n") {
            let path = try #require(try JSONValue.parse(String(line))["author"]?["avatarPath"]?.string)
            #expect(FileManager.default.fileExists(atPath: path))
        }
        let status = try JSONValue.parse(Binary.run(["status", "--json", "--config", world.configPath]).stdout)
        #expect(status["images"]?["files"]?.int == onDisk.count)
        let totals = try await daemon.database.imageCacheTotals()
        #expect(status["images"]?["bytes"]?.int.map(Int64.init) == totals.bytes)

        // A restart: new database connection, new services. Nothing is asked again.
        daemon = try world.daemon(database: try AppDatabase.open(path: config.storage.database), clock: clock)
        for syncer in daemon.syncers { try await syncer.poll() }
        fetcher = try #require(daemon.imageFetcher)
        #expect(try await fetcher.fetchDue() == ImageFetcher.Cycle())
        clock.advance(by: 6 * 86_400)
        #expect(try await fetcher.fetchDue() == ImageFetcher.Cycle())
        #expect(world.emulator.requestCount(pathContains: "/profile_images/") == authors.count)

        // After revalidateDays: one conditional request each, all 304, no body.
        clock.advance(by: 1 * 86_400 + 1)
        let revalidated = try await fetcher.fetchDue()
        #expect(revalidated.notModified == authors.count && revalidated.fetched == 0 && revalidated.bytes == 0)
        #expect(Self.imageRequests(world).suffix(authors.count).allSatisfy { $0.status == 304 })
        #expect(Self.filesOnDisk(config.storage.imageCache) == onDisk)

        // Author A gets new bytes behind the same URL, author B a new URL (seen in a new page).
        let (a, b) = (authors[5], authors[6])
        let oldA = try #require(try await daemon.database.profileImage(UserID(a)!)?.file)
        world.emulator.changeProfileImageBytes(ofUser: a)
        let newURL = try #require(world.emulator.changeProfileImageURL(ofUser: b))
        world.emulator.addTweets(to: .home, count: 1, by: b)
        world.serverFollows(clock)
        try await #require(daemon.syncers.first { $0.feed == .home }).poll()
        let changed = try await fetcher.fetchDue()
        #expect(changed.fetched == 1 && changed.requests == 1)
        #expect(try await daemon.database.profileImage(UserID(b)!)?.url == newURL)
        clock.advance(by: 8 * 86_400)
        let later = try await fetcher.fetchDue()
        #expect(later.fetched == 1 && later.notModified == authors.count - 1)
        let rowA = try #require(try await daemon.database.profileImage(UserID(a)!))
        #expect(rowA.file != oldA)
        #expect(try FileManager.default.contents(atPath: #require(rowA.file.flatMap(fetcher.store.path(of:))))
            == Data(world.emulator.profileImageBytes(ofUser: a)!))
        #expect(!fetcher.store.exists(oldA), "A's old picture is nobody's any more")
    }

    @Test func badPicturesAreRefusedOnceEachWhileTheFeedsKeepPolling() async throws {
        let world = try TestWorld(tweets: 40, extraConfig: Self.imagesConfig(["timeoutSeconds": .number("2")]))
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        for syncer in daemon.syncers { try await syncer.poll() }
        let authors = try Self.authorIDs(daemon.database)
        let bad: [(BadImage, String)] = [
            (.wrongType, "content_type"), (.mismatchedType, "magic_mismatch"), (.oversize, "too_large"),
            (.oversizeUnannounced, "too_large"), (.redirectDisallowed, "redirect_not_allowed"),
            (.redirectLoop, "too_many_redirects"),
        ]
        for (index, (image, _)) in bad.enumerated() { world.emulator.serveBadImage(image, forUser: authors[index]) }
        let slow = authors[bad.count]
        world.emulator.serveBadImage(.slow(seconds: 5), forUser: slow)

        let fetcher = try #require(daemon.imageFetcher)
        let fetching = Task { try await fetcher.fetchDue() }
        // While the slow picture hangs mid-body, every feed polls and completes.
        #expect(await eventually { world.emulator.requestCount(pathContains: "/profile_images/\(slow)/") == 1 })
        world.emulator.addTweets(to: .home, count: 3)
        world.emulator.addTweets(to: .mentions, count: 2)
        for syncer in daemon.syncers {
            let outcome = try await syncer.poll()
            #expect(outcome.complete && outcome.error == nil, "\(syncer.feed)")
        }
        #expect(try await daemon.database.syncState(.home).lastError == nil)

        let cycle = try await fetching.value
        #expect(cycle.rejected == bad.count && cycle.failed == 1, "\(cycle)")
        #expect(cycle.fetched >= authors.count - bad.count - 1)
        let rejected = world.sink.events("image.rejected")
        #expect(rejected.count == bad.count)
        for (index, (image, reason)) in bad.enumerated() {
            #expect(rejected.contains { $0.contains("author_id=\(authors[index]) ") && $0.contains("reason=\(reason) ") }, "\(image)")
            let row = try #require(try await daemon.database.profileImage(UserID(authors[index])!))
            #expect(row.rejectedReason == reason && row.file == nil)
        }
        let failed = try #require(world.sink.events("image.failed").first)
        #expect(failed.contains("author_id=\(slow) ") && failed.contains("reason=timeout"))
        // Nothing half-written, and no file for any refused picture.
        let files = Self.filesOnDisk(try world.config.storage.imageCache)
        #expect(files.count == cycle.written && !files.contains { $0.contains(".tmp-") })

        // Authors new in the pages stored meanwhile come in the next pass.
        let catchUp = try await fetcher.fetchDue()
        #expect(catchUp.rejected == 0 && catchUp.failed == 0 && catchUp.requests == catchUp.fetched)

        // Seen again later: refusals are not retried or logged again; the timeout backs off.
        let asked = Self.imageRequests(world).count
        world.emulator.clearBadImages()
        clock.advance(by: 60)
        for syncer in daemon.syncers { try await syncer.poll() }
        #expect(try await fetcher.fetchDue().requests == 0)
        #expect(Self.imageRequests(world).count == asked)
        #expect(world.sink.events("image.rejected").count == bad.count)
        clock.advance(by: 6 * 3600)
        let retry = try await fetcher.fetchDue()
        #expect(retry.fetched == 1 && retry.requests == 1, "the slow one, now answered in time")
    }

    @Test func theTransferIsCutOffPastFiveMegabytesNotReadAndDropped() async throws {
        let world = try TestWorld(tweets: 5)
        let transport = CurlTransport()
        let author = try #require(world.emulator.tweet(world.emulator.allTweetIDs(.home)[0])?.authorID)
        let url = try #require(world.emulator.profileImageURL(ofUser: author))
        for image in [BadImage.oversizeUnannounced, .oversize] {
            world.emulator.serveBadImage(image, forUser: author)
            let before = world.emulator.imageBodyBytesSent
            let started = Date()
            await #expect(throws: TransportError(.responseTooLarge, "response over 5242880 bytes")) {
                try await transport.send(APIRequest(url: url, maxResponseBytes: ImageDownloader.maxImageBytes))
            }
            // 50 MB were on offer without a length: what went out is the 5 MB read plus
            // what the sockets' buffers took before curl hung up.
            let sent = world.emulator.imageBodyBytesSent - before
            #expect(sent < 20 << 20, "\(image): \(sent) bytes sent")
            #expect(Date().timeIntervalSince(started) < 5)
        }
    }

    @Test func theCacheStaysUnderItsCapAndAnEmptiedFolderIsRefilled() async throws {
        let world = try TestWorld(tweets: 20, extraConfig: Self.imagesConfig(["size": .string("400x400"), "maxCacheMB": .number("1")]))
        let clock = ManualClock(now: Date())
        let config = try world.config
        let daemon = try world.daemon(clock: clock)
        for syncer in daemon.syncers { try await syncer.poll() }
        let authors = try Self.authorIDs(daemon.database)
        let fetcher = try #require(daemon.imageFetcher)
        let janitor = try #require(daemon.imageJanitor)
        let cycle = try await fetcher.fetchDue()
        #expect(cycle.fetched == authors.count)
        #expect(world.emulator.requests.filter { $0.endpoint == "images" }.allSatisfy { $0.path.hasSuffix("_400x400.png") })
        #expect(cycle.bytes > 1 << 20)

        let report = try await janitor.sweep()
        #expect(report.bytes <= 1 << 20 && report.files >= 1 && report.evictedFiles == authors.count - report.files)
        let kept = Self.filesOnDisk(config.storage.imageCache)
        #expect(kept.count == report.files)
        #expect(world.sink.events("image.evicted").count == 1)
        let status = try JSONValue.parse(Binary.run(["status", "--json", "--config", world.configPath]).stdout)
        #expect(status["images"]?["files"]?.int == report.files)
        #expect(try #require(status["images"]?["bytes"]?.int) <= 1 << 20)
        // Evicted pictures are not fetched back until their authors are seen again.
        #expect(try await fetcher.fetchDue().requests == 0)
        var avatars: [FeedItem] = []
        for feed in Feed.allCases { avatars += try await daemon.database.feedItems(feed, limit: 100, avatarPath: Self.avatarPath(config)) }
        #expect(Set(avatars.compactMap(\.avatarPath)).count == report.files)

        // Someone empties the cache folder: the janitor notices, the fetcher refills what was kept.
        try FileManager.default.removeItem(atPath: config.storage.imageCache)
        #expect(try await janitor.sweep().missingFiles == report.files)
        let refill = try await fetcher.fetchDue()
        #expect(refill.fetched == report.files && refill.requests == report.files)
        #expect(Self.filesOnDisk(config.storage.imageCache) == kept)
        #expect(world.sink.events("image.repaired").count == 1)
    }

    @Test func aSIGKILLMidDownloadLeavesNoPartialFileAndTheNextRunCompletes() async throws {
        let world = try TestWorld(tweets: 40, extraConfig: Self.imagesConfig())
        let config = try world.config
        // Every picture (avatars, and the photos posts show) sends its headers and half
        // its body, then hangs.
        world.emulator.serveBadImage(.slow(seconds: 30), pathContains: ".png")
        let first = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/run1.log")
        // One download in flight is enough: which authors the first pass sees depends on
        // which feed is stored first (reposts of me have one author), and a stalled pass
        // takes no new candidates until it ends.
        let started = await eventually { world.emulator.requestCount(pathContains: "/profile_images/") >= 1 }
        #expect(started, "\((try? String(contentsOfFile: "\(world.folder)/run1.log", encoding: .utf8)) ?? "no log")")
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(first.terminationReason == .uncaughtSignal)
        #expect(Self.filesOnDisk(config.storage.imageCache).isEmpty, "\(Self.filesOnDisk(config.storage.imageCache))")

        world.emulator.clearBadImages()
        let database = try AppDatabase.open(path: world.databasePath)
        let second = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/run2.log")
        defer { second.terminate(); second.waitUntilExit() }
        // The kill may have come before every feed was stored: count the authors once
        // the second run has polled them all.
        #expect(await eventually {
            (try? await Feed.polled.allSatisfy { try await database.syncState($0).lastSuccessAt != nil }) == true
        })
        let authors = try Self.authorIDs(database)
        #expect(await eventually {
            (try? await database.profileImages().filter { $0.file != nil }.count) == authors.count
        })
        // The photos posts show are cached beside the avatars: every file is complete.
        let files = Self.filesOnDisk(config.storage.imageCache)
        let avatarFiles = Set(try await database.profileImages().compactMap(\.file))
        #expect(avatarFiles.count == authors.count && Set(files).isSuperset(of: avatarFiles))
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: "\(config.storage.imageCache)/\(file)"))
            #expect(file.hasSuffix("/\(SHA256.hex(Array(bytes))).png"), "complete and named by its content")
            #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        }
        // The cycle's line follows its last file: wait for it rather than race it.
        let log = "\(world.folder)/run2.log"
        #expect(await eventually { (try? String(contentsOfFile: log, encoding: .utf8))?.contains("event=image.cycle") == true })
        #expect(!(try String(contentsOfFile: log, encoding: .utf8)).contains("event=image.rejected"))
    }
}

extension Daemon {
    var imageFetcher: ImageFetcher? { services.lazy.compactMap { $0 as? ImageFetcher }.first }
    var imageJanitor: ImageJanitor? { services.lazy.compactMap { $0 as? ImageJanitor }.first }
}

enum ImageFixtureBytes {
    /// A small valid PNG (1×1, RGB).
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41,
        0x54, 0x08, 0xD7, 0x63, 0xF8, 0xCF, 0xC0, 0x00, 0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xDD, 0x8D, 0xB0, 0x00, 0x00, 0x00,
        0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
}
