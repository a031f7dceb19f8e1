import Foundation
import Testing
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore

struct ImageFetcherTests {
    let fixture: ImageFixture
    let host = ScriptedImageHost()

    init() throws { fixture = try ImageFixture() }

    func fetcher(janitorBell: Doorbell? = nil, _ edit: (inout TwfeedConfig.Images) -> Void = { _ in }) -> ImageFetcher {
        ImageFetcher(ImageFetchCore(config: fixture.config(edit), database: fixture.database, store: fixture.store, clock: fixture.clock,
                                    transport: host, janitorBell: janitorBell, logger: fixture.logger))
    }

    static func url(_ id: Int64, version: Int = 1) -> String { "https://pbs.twimg.com/profile_images/\(id)/\(version)_normal.png" }

    /// Authors 1...count, each with their own picture on the scripted host.
    func authors(_ count: Int) async throws {
        for id in 1 ... Int64(count) { host.image(Self.url(id), body: ImageFixture.png(Int(id)), etag: "\"e\(id)\"") }
        try await fixture.storeAuthors((1 ... Int64(count)).map { ($0, Self.url($0)) })
    }

    @Test func newAuthorsAreFetchedAtMostFourAtATime() async throws {
        defer { fixture.remove() }
        try await authors(12)
        let cycle = try await fetcher().fetchDue()
        #expect(cycle.fetched == 12 && cycle.requests == 12 && cycle.written == 12 && cycle.rejected == 0)
        #expect(host.maxInFlight <= 4 && host.maxInFlight >= 2, "\(host.maxInFlight)")
        #expect(Set(host.urls) == Set((1 ... Int64(12)).map { Self.url($0) }))
        for request in host.requests {
            #expect(request.maxResponseBytes == 5 << 20)
            #expect(!request.headers.contains { $0.name.hasPrefix("If-") }, "a first fetch is unconditional")
        }
        for id in 1 ... Int64(12) {
            let row = try #require(try await fixture.database.profileImage(UserID(id)))
            let path = try #require(row.file.flatMap(fixture.store.path(of:)))
            #expect(FileManager.default.contents(atPath: path) == Data(ImageFixture.png(Int(id))))
            #expect(row.etag == "\"e\(id)\"" && row.lastModified == "Sat, 21 Nov 2026 10:00:00 GMT")
            #expect(row.fetchedAt == fixture.clock.now() && row.bytes == 100)
        }
        #expect(fixture.sink.events("image.fetched").count == 12)
        #expect(fixture.sink.events("image.cycle").first?.contains("fetched=12") == true)
    }

    @Test func anUnchangedImageIsRevalidatedOnlyAfterRevalidateDaysAndA304CostsNoBody() async throws {
        defer { fixture.remove() }
        try await authors(3)
        let fetcher = fetcher { $0.revalidateDays = 7 }
        try await fetcher.fetchDue()
        #expect(host.requests.count == 3)
        // Seen again in newer pages, days later: still nothing to ask.
        fixture.clock.advance(by: 6.9 * 86_400)
        try await fixture.storeAuthors((1 ... 3).map { ($0, Self.url($0)) })
        #expect(try await fetcher.fetchDue() == ImageFetcher.Cycle())
        #expect(host.requests.count == 3)
        #expect(try await fixture.database.nextImageDue(revalidateSeconds: 7 * 86_400) == Date(timeIntervalSince1970: 1_800_000_000 + 7 * 86_400))

        fixture.clock.advance(by: 0.2 * 86_400)
        let cycle = try await fetcher.fetchDue()
        #expect(cycle.notModified == 3 && cycle.fetched == 0 && cycle.bytes == 0 && cycle.requests == 3)
        for request in host.requests.dropFirst(3) {
            let id = request.url.split(separator: "/")[3]
            #expect(request.headers.contains { $0.name == "If-None-Match" && $0.value == "\"e\(id)\"" })
            #expect(request.headers.contains { $0.name == "If-Modified-Since" && $0.value == "Sat, 21 Nov 2026 10:00:00 GMT" })
        }
        let row = try #require(try await fixture.database.profileImage(UserID(1)))
        #expect(row.fetchedAt == fixture.clock.now() && row.file.map(fixture.store.exists) == true)
        #expect(try await fetcher.fetchDue() == ImageFetcher.Cycle(), "the clock restarted")
        #expect(fixture.sink.events("image.not_modified").count == 3)
    }

    @Test func changedPicturesAreFetchedAndTheOldFileGoes() async throws {
        defer { fixture.remove() }
        try await authors(2)
        let fetcher = fetcher()
        try await fetcher.fetchDue()
        let old = try #require(try await fixture.database.profileImage(UserID(1))?.file)
        // Author 1 uploads a new picture: a new URL in the next page.
        host.image(Self.url(1, version: 2), body: ImageFixture.png(1001), etag: "\"new\"")
        try await fixture.storeAuthors([(1, Self.url(1, version: 2))])
        let cycle = try await fetcher.fetchDue()
        #expect(cycle.fetched == 1 && host.urls.last == Self.url(1, version: 2))
        #expect(!host.requests.last!.headers.contains { $0.name == "If-None-Match" })
        let row = try #require(try await fixture.database.profileImage(UserID(1)))
        #expect(row.url == Self.url(1, version: 2) && row.file != old && row.etag == "\"new\"")
        #expect(!fixture.store.exists(old), "nobody uses the old picture any more")
        #expect(fixture.store.scan().files.count == 2)
    }

    @Test func theSameBytesForSeveralAuthorsAreOneFile() async throws {
        defer { fixture.remove() }
        let shared = ImageFixture.png(7)
        for id in Int64(1) ... 3 { host.image(Self.url(id), body: shared, etag: "\"s\(id)\"") }
        try await fixture.storeAuthors((1 ... 3).map { ($0, Self.url($0)) })
        let fetcher = fetcher { $0.concurrency = 1 }
        let cycle = try await fetcher.fetchDue()
        #expect(cycle.fetched == 3 && cycle.written == 1)
        let files = Set(try await fixture.database.profileImages().compactMap(\.file))
        #expect(files.count == 1)
        #expect(fixture.store.scan().files.count == 1)
        // One author moves on; the others still hold the file.
        host.image(Self.url(1, version: 2), body: ImageFixture.png(8), etag: "\"x\"")
        try await fixture.storeAuthors([(1, Self.url(1, version: 2))])
        try await fetcher.fetchDue()
        #expect(fixture.store.exists(files.first!))
        #expect(try await fixture.database.imageCacheTotals().files == 2)
    }

    @Test func badImagesAreRejectedOnceWithTheirReasonAndNeverRetried() async throws {
        defer { fixture.remove() }
        let png = ImageFixture.png(1)
        let cases: [(id: Int64, url: String, reason: String)] = [
            (1, "https://evil.example/profile_images/1/a_normal.png", "host_not_allowed"),
            (2, "http://pbs.twimg.com/profile_images/2/a_normal.png", "not_https"),
            (3, Self.url(3), "content_type"),
            (4, Self.url(4), "magic_mismatch"),
            (5, Self.url(5), "too_large"),
            (6, Self.url(6), "redirect_not_allowed"),
            (7, Self.url(7), "too_many_redirects"),
            (8, Self.url(8), "bad_redirect"),
        ]
        host.answer(Self.url(3)) { _ in APIResponse(status: 200, headers: ["content-type": "text/html"], body: Array("<html>".utf8)) }
        host.answer(Self.url(4)) { _ in APIResponse(status: 200, headers: ["content-type": "image/png"], body: Array("GIF89a....".utf8)) }
        host.answer(Self.url(5)) { _ in throw TransportError(.responseTooLarge, "response over 5242880 bytes") }
        host.answer(Self.url(6)) { _ in APIResponse(status: 302, headers: ["location": "http://169.254.169.254/latest/meta-data/"]) }
        host.answer(Self.url(7)) { request in APIResponse(status: 301, headers: ["location": request.url]) }
        host.answer(Self.url(8)) { _ in APIResponse(status: 302) }
        host.image(Self.url(9), body: png, etag: "\"ok\"")
        try await fixture.storeAuthors(cases.map { ($0.id, $0.url) } + [(9, Self.url(9))])
        let fetcher = fetcher()
        let cycle = try await fetcher.fetchDue()
        #expect(cycle.rejected == 8 && cycle.fetched == 1)
        let rejected = fixture.sink.events("image.rejected")
        #expect(rejected.count == 8)
        for (id, url, reason) in cases {
            #expect(rejected.contains { $0.contains("author_id=\(id) ") && $0.contains("reason=\(reason) ") && $0.contains("url=\(url)") },
                    "\(id) \(reason)")
            #expect(try await fixture.database.profileImage(UserID(id))?.rejectedReason == reason)
            #expect(try await fixture.database.profileImage(UserID(id))?.file == nil)
        }
        #expect(rejected.allSatisfy { $0.contains("level=warn") })
        // Neither the URL nor the host were asked for what the policy refuses.
        #expect(!host.urls.contains { $0.contains("evil.example") || $0.contains("169.254") || $0.hasPrefix("http:") })
        #expect(host.urls.filter { $0 == Self.url(7) }.count == 4, "three redirects followed, then refused")

        // Seen again: not retried, not logged again.
        let asked = host.requests.count
        fixture.clock.advance(by: 30 * 86_400)
        try await fixture.storeAuthors(cases.map { ($0.id, $0.url) })
        let again = try await fetcher.fetchDue()
        #expect(again.rejected == 0 && again.requests == 1, "only author 9's revalidation")
        #expect(host.requests.count == asked + 1)
        #expect(fixture.sink.events("image.rejected").count == 8)

        // A new URL is a new chance.
        host.image(Self.url(3, version: 2), body: png, etag: "\"3b\"")
        try await fixture.storeAuthors([(3, Self.url(3, version: 2))])
        #expect(try await fetcher.fetchDue().fetched == 1)
        #expect(try await fixture.database.profileImage(UserID(3))?.rejectedReason == nil)
    }

    @Test func aRefusalIsReconsideredWhenThePolicyChanges() async throws {
        defer { fixture.remove() }
        let url = "https://images.example/profile_images/1/a_normal.png"
        host.image(url, body: ImageFixture.png(1), etag: "\"1\"")
        try await fixture.storeAuthors([(1, url)])
        #expect(try await fetcher().fetchDue().rejected == 1)
        #expect(try await fetcher().fetchDue().candidates == 0, "same config: left alone")
        // The user adds the host and restarts.
        let widened = fetcher { $0.allowedHosts.append("images.example") }
        #expect(try await widened.fetchDue().fetched == 1)
        #expect(host.urls == [url])
    }

    @Test func redirectsWithinTheAllowedHostsAreFollowed() async throws {
        defer { fixture.remove() }
        host.answer(Self.url(1)) { _ in APIResponse(status: 302, headers: ["location": "https://cdn.example/a.png"]) }
        host.answer("https://cdn.example/a.png") { _ in APIResponse(status: 307, headers: ["location": "/b.png"]) }
        host.image("https://cdn.example/b.png", body: ImageFixture.png(3), etag: "\"b\"")
        try await fixture.storeAuthors([(1, Self.url(1))])
        let cycle = try await fetcher().fetchDue()
        #expect(cycle.fetched == 1 && cycle.requests == 3)
        #expect(host.urls == [Self.url(1), "https://cdn.example/a.png", "https://cdn.example/b.png"])
        #expect(try await fixture.database.profileImage(UserID(1))?.url == Self.url(1), "the row keeps the author's URL")
    }

    @Test func transientFailuresBackOffAndKeepTheFileTheyHave() async throws {
        defer { fixture.remove() }
        let failing = Self.url(1)
        host.answer(failing) { _ in APIResponse(status: 503) }
        try await fixture.storeAuthors([(1, failing)])
        let fetcher = fetcher()
        #expect(try await fetcher.fetchDue().failed == 1)
        let row = try #require(try await fixture.database.profileImage(UserID(1)))
        #expect(row.failures == 1 && row.lastError == ImageFailure(reason: "http_503", detail: "HTTP 503"))
        let retryAt = try #require(row.retryAt)
        #expect(retryAt.timeIntervalSince(fixture.clock.now()) >= 150 && retryAt.timeIntervalSince(fixture.clock.now()) <= 300)
        #expect(try await fetcher.fetchDue().requests == 0, "not before retryAt")
        #expect(fixture.sink.events("image.failed").first?.contains("reason=http_503") == true)

        host.image(failing, body: ImageFixture.png(1), etag: "\"1\"")
        fixture.clock.advance(to: retryAt)
        #expect(try await fetcher.fetchDue().fetched == 1)
        let fixed = try #require(try await fixture.database.profileImage(UserID(1)))
        #expect(fixed.failures == 0 && fixed.retryAt == nil && fixed.file != nil)

        // A failed revalidation keeps the file on disk and in the row.
        host.answer(failing) { _ in throw TransportError(.timeout, "Operation timed out") }
        fixture.clock.advance(by: 8 * 86_400)
        #expect(try await fetcher.fetchDue().failed == 1)
        let kept = try #require(try await fixture.database.profileImage(UserID(1)))
        #expect(kept.file == fixed.file && kept.failures == 1)
        #expect(fixture.sink.events("image.failed").last?.contains("reason=timeout") == true)
    }

    @Test func anEvictedPictureComesBackOnlyWhenItsAuthorIsSeenAgain() async throws {
        defer { fixture.remove() }
        try await authors(3)
        let janitorBell = Doorbell()
        let fetcher = fetcher(janitorBell: janitorBell)
        try await fetcher.fetchDue()
        let janitor = ImageJanitor(store: fixture.store, database: fixture.database, clock: fixture.clock, capBytes: 150, logger: fixture.logger)
        #expect(try await janitor.sweep().evictedFiles == 2)
        #expect(try await fetcher.fetchDue().requests == 0, "no tug of war with the janitor")
        fixture.clock.advance(by: 60)
        try await fixture.storeAuthors([(1, Self.url(1))])
        let cycle = try await fetcher.fetchDue()
        #expect(cycle.fetched == 1 && host.urls.last == Self.url(1))
        #expect(try await fixture.database.profileImage(UserID(1))?.lastUsedAt == fixture.clock.now())
    }

    @Test func theJanitorIsToldWhenTheCacheOutgrowsItsCap() async throws {
        defer { fixture.remove() }
        for id in Int64(1) ... 3 { host.image(Self.url(id), body: ImageFixture.png(Int(id), size: 600 << 10), etag: "\"\(id)\"") }
        try await fixture.storeAuthors((1 ... 3).map { ($0, Self.url($0)) })
        let janitorBell = Doorbell()
        try await fetcher(janitorBell: janitorBell) { $0.maxCacheMB = 1 }.fetchDue()
        await janitorBell.wait()  // returns at once: it was rung
    }

    @Test func aPageThatStoresAuthorsWakesTheRunningFetcher() async throws {
        defer { fixture.remove() }
        try await authors(2)
        let fetcher = fetcher()
        let running = Task { try await fetcher.run() }
        // Idle after its first pass: asleep on the clock until the next hour.
        await host.waitForRequests(2)
        await fixture.clock.waitForSleepers(1)
        host.image(Self.url(3), body: ImageFixture.png(3), etag: "\"3\"")
        try await fixture.storeAuthors([(3, Self.url(3))])
        // The database observation rings; the next pass fetches author 3, then sleeps again.
        await host.waitForRequests(3)
        await fixture.clock.waitForSleepers(1)
        #expect(host.urls.last == Self.url(3))
        #expect(try await fixture.database.profileImage(UserID(3))?.file != nil)
        #expect(fixture.clock.nextDeadline == fixture.clock.now().addingTimeInterval(ImageFetcher.idleInterval))
        running.cancel()
        try await running.value
    }
}
