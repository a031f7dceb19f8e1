import Foundation
import Testing
import TwfeedEmulator
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore

/// Photos against the emulator's image host, both dialects, through the daemon the
/// factory builds: each picture a post shows is downloaded once, `feed --json` gives its
/// file, and `twfeed serve` shows it from `/media/` at its size with its alt text (a
/// video or GIF as its still, in a link to the post on x.com).
@Suite(.serialized, .tags(.integration))
struct PhotoTests {
    /// Requests for posts' pictures (not avatars), by path.
    static func pictureRequests(_ world: TestWorld) -> [String: Int] {
        world.emulator.requests.filter { $0.endpoint == "images" && !$0.path.contains("/profile_images/") }
            .reduce(into: [:]) { counts, request in counts[request.path, default: 0] += 1 }
    }

    static func photoURLs(_ database: AppDatabase) throws -> [String] {
        try database.inspect { db in try String.fetchAll(db, sql: "SELECT url FROM photo ORDER BY url") }
    }

    @Test(arguments: ["v2", "v1.1"])
    func eachPictureIsCachedOnceShownFromMediaAndGivenByFeedJSON(dialect: String) async throws {
        let world = try TestWorld(
            dialect: dialect, tweets: 60,
            extraConfig: ImageTests.imagesConfig().merging(["http": .object(["auth": .string("none")])]) { $1 })
        let clock = ManualClock(now: Date())
        world.serverFollows(clock)
        let daemon = try world.daemon(clock: clock)
        for syncer in daemon.syncers { try await syncer.poll() }
        let photos = try #require(daemon.services.lazy.compactMap { $0 as? PhotoFetcher }.first)
        let urls = try Self.photoURLs(daemon.database)
        #expect(urls.count >= 5, "the seeded posts show pictures")

        let first = try await photos.fetchDue()
        #expect(first.fetched == urls.count && first.requests == urls.count && first.rejected == 0 && first.failed == 0, "\(first)")
        // More posts, another poll, passes later: only the new pictures are asked for.
        world.emulator.addTweets(to: .home, count: 30)
        clock.advance(by: 120)
        world.serverFollows(clock)
        for syncer in daemon.syncers { try await syncer.poll() }
        try await photos.fetchDue()
        clock.advance(by: 86_400)
        #expect(try await photos.fetchDue() == PhotoFetcher.Cycle())
        let requests = Self.pictureRequests(world)
        #expect(requests.count == (try Self.photoURLs(daemon.database)).count)
        #expect(requests.values.allSatisfy { $0 == 1 }, "each picture once: \(requests.filter { $0.value > 1 })")

        // feed --json: every picture has its file, of the size the post says.
        let feed = try Binary.run(["feed", "home", "--json", "--config", world.configPath])
        #expect(feed.status == 0, "\(feed.stderr)")
        var kinds: Set<String> = []
        var shownFiles: [String] = []
        for line in feed.stdout.split(separator: "\n") {
            let object = try JSONValue.parse(String(line))
            let shown = object["retweetOf"].flatMap { $0 == .null ? nil : $0 } ?? object
            let quoted = shown["quoted"].flatMap { $0 == .null ? nil : $0 }
            for media in (shown["media"]?.array ?? []) + (quoted?["media"]?.array ?? []) {
                kinds.insert(try #require(media["type"]?.string))
                let path = try #require(media["path"]?.string, "\(media)")
                let bytes = try #require(FileManager.default.contents(atPath: path))
                #expect(ImageFormat.sniff([UInt8](bytes.prefix(16))) == .png)
                #expect(media["width"]?.int != nil && media["height"]?.int != nil)
                shownFiles.append(path)
            }
        }
        #expect(kinds.contains("photo") && (kinds.contains("video") || kinds.contains("animated_gif")), "\(kinds)")

        // twfeed serve: the page shows them from /media/, and /media/ serves the file.
        let (server, port) = try await Binary.serve(world)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let home = try await RawHTTP.request(port: port, "/home?limit=200")
        #expect(home.status == 200)
        let images = home.text.components(separatedBy: "<img class=\"photo media-").dropFirst()
        #expect(!images.isEmpty)
        #expect(!home.text.contains("not cached yet"), "every picture of the page is cached")
        for tag in images.map({ String($0.prefix { $0 != ">" }) }) {
            #expect(tag.contains(#"src="/media/"#) && tag.contains(" width=\"") && tag.contains(" height=\"") && tag.contains(" alt=\""), "\(tag)")
        }
        #expect(home.text.contains(#"<a class="play" href="https://x.com/"#), "a video's still links to the post")
        let file = try #require(home.text.components(separatedBy: #"src="/media/"#).dropFirst().first.map { String($0.prefix { $0 != "\"" }) })
        let served = try await RawHTTP.request(port: port, "/media/\(file)")
        #expect(served.status == 200 && served.headers["content-type"] == "image/png")
        #expect(shownFiles.contains { $0.hasSuffix(file) })
        #expect(served.body == [UInt8](try #require(FileManager.default.contents(atPath: "\(try world.config.storage.imageCache)/\(file)"))))
        #expect(try await RawHTTP.request(port: port, "/media/../\(file)").status == 404)
        #expect(try await RawHTTP.request(port: port, "/media/%2e%2e/reader-secret").status == 404)
    }

    @Test func photosOffFetchesNoPicture() async throws {
        let world = try TestWorld(tweets: 30, extraConfig: ImageTests.imagesConfig(["photos": .bool(false)]))
        let clock = ManualClock(now: Date())
        world.serverFollows(clock)
        let daemon = try world.daemon(clock: clock)
        #expect(daemon.services.contains { $0 is ImageFetcher })
        #expect(!daemon.services.contains { $0 is PhotoFetcher })
        for syncer in daemon.syncers { try await syncer.poll() }
        #expect(try Self.photoURLs(daemon.database).count > 0, "the pictures are known, only not fetched")
        let feed = try Binary.run(["feed", "home", "--json", "--config", world.configPath])
        let paths = try feed.stdout.split(separator: "\n").flatMap { line in
            try JSONValue.parse(String(line))["media"]?.array ?? []
        }.map { $0["path"] }
        #expect(!paths.isEmpty && paths.allSatisfy { $0 == .null })
    }
}
