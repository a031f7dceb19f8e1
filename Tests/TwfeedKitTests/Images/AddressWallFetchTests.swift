import Foundation
import Testing
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// The address wall on the wire: an image fetch never connects to a walled address,
/// whatever DNS said about an allowed host, while the API's requests go where the
/// config says. Real libcurl against a server on 127.0.0.1 that counts connections.
struct AddressWallFetchTests {
    let fixture: ImageFixture
    let server: LoopbackHTTPServer

    init() throws {
        fixture = try ImageFixture()
        server = try LoopbackHTTPServer(body: ImageFixture.png(1), contentType: "image/png")
    }

    func fetcher(_ edit: (inout TwfeedConfig.Images) -> Void) -> ImageFetcher {
        ImageFetcher(ImageFetchCore(config: fixture.config(edit), database: fixture.database, store: fixture.store, clock: fixture.clock,
                                    transport: CurlTransport(connectTimeoutSeconds: 2, environment: [:]), logger: fixture.logger))
    }

    /// `localhost` is an allowed https host, but it resolves to loopback, which
    /// `allowInsecureLoopback` (off) keeps walled: refused before any connection, with
    /// its own reason, and not asked again.
    @Test func anAllowedHostThatResolvesToAWalledAddressIsRefusedWithoutAConnection() async throws {
        defer { fixture.remove(); server.stop() }
        let url = "https://localhost:\(server.port)/profile_images/1/a_normal.png"
        try await fixture.storeAuthors([(1, url)])
        let fetcher = fetcher { $0.allowedHosts = ["localhost"]; $0.timeoutSeconds = 5 }
        let cycle = try await fetcher.fetchDue()
        #expect(cycle.rejected == 1 && cycle.fetched == 0 && cycle.failed == 0)
        #expect(server.connections == 0, "no packet reached the walled address")
        let row = try #require(try await fixture.database.profileImage(UserID(1)))
        #expect(row.rejectedReason == "address_not_allowed" && row.file == nil)
        let logged = try #require(fixture.sink.events("image.rejected").first)
        #expect(logged.contains("reason=address_not_allowed") && logged.contains("level=warn"), "\(logged)")
        #expect(logged.contains("127.0.0.0/8") || logged.contains("::1/128"), "\(logged)")

        // Seen again later: not retried, not logged again.
        fixture.clock.advance(by: 30 * 86_400)
        try await fixture.storeAuthors([(1, url)])
        #expect(try await fetcher.fetchDue().requests == 0)
        #expect(fixture.sink.events("image.rejected").count == 1)
        #expect(server.connections == 0)
    }

    /// A redirect hop is walled like the first: `0.0.0.0` (which reaches the host itself
    /// on Linux) stays walled when `allowInsecureLoopback` opens loopback.
    @Test func aRedirectToAWalledAddressIsRefusedWithoutAConnection() async throws {
        let hop = try LoopbackHTTPServer(status: 302, location: "https://0.0.0.0:\(server.port)/a.png")
        defer { fixture.remove(); server.stop(); hop.stop() }
        try await fixture.storeAuthors([(1, "\(hop.url)/profile_images/1/a_normal.png")])
        let fetcher = fetcher { $0.allowedHosts = ["127.0.0.1", "0.0.0.0"]; $0.allowInsecureLoopback = true; $0.timeoutSeconds = 5 }
        #expect(try await fetcher.fetchDue().rejected == 1)
        #expect(hop.connections == 1 && server.connections == 0)
        #expect(try await fixture.database.profileImage(UserID(1))?.rejectedReason == "address_not_allowed")
        let logged = try #require(fixture.sink.events("image.rejected").first)
        #expect(logged.contains("0.0.0.0 is in 0.0.0.0/8"), "\(logged)")
    }

    /// Photos go through the same door.
    @Test func aPhotoOnAWalledAddressIsRefusedWithoutAConnection() async throws {
        defer { fixture.remove(); server.stop() }
        let url = "https://localhost:\(server.port)/media/p.png"
        let ada = Author(id: UserID(1), username: "ada", name: "Ada", profileImageURL: nil)
        let post = Tweet(id: TweetID(10), authorID: ada.id, createdAt: Date(timeIntervalSince1970: 10), text: "x",
                         media: [Media(key: "3_1", kind: .photo, imageURL: url)])
        _ = try await fixture.database.storePage(TimelinePage(tweets: [post], authors: [ada], nextPageToken: nil),
                                                 feed: .home, state: SyncState(feed: .home), now: fixture.clock.now())
        let config = fixture.config { $0.allowedHosts = ["localhost"]; $0.timeoutSeconds = 5 }
        let photos = PhotoFetcher(ImageFetchCore(config: config, database: fixture.database, store: fixture.store, clock: fixture.clock,
                                                 transport: CurlTransport(connectTimeoutSeconds: 2, environment: [:]), logger: fixture.logger))
        #expect(try await photos.fetchDue().rejected == 1)
        #expect(server.connections == 0)
        #expect(try await fixture.database.photo(url)?.rejectedReason == "address_not_allowed")
        #expect(fixture.sink.events("photo.rejected").first?.contains("reason=address_not_allowed") == true)
        #expect(try await photos.fetchDue() == PhotoFetcher.Cycle(), "not tried again")
    }

    /// With `allowInsecureLoopback` (tests, the demo) the same loopback host serves.
    @Test func loopbackPicturesLoadWithAllowInsecureLoopback() async throws {
        defer { fixture.remove(); server.stop() }
        try await fixture.storeAuthors([(1, "\(server.url)/profile_images/1/a_normal.png")])
        let cycle = try await fetcher { $0.allowedHosts = ["127.0.0.1"]; $0.allowInsecureLoopback = true }.fetchDue()
        #expect(cycle.fetched == 1 && cycle.rejected == 0)
        #expect(server.connections == 1)
    }

    /// The API's base URL is the admin's: a request without a wall reaches loopback, and
    /// the same transport still walls the next image request.
    @Test func anAPIRequestToALoopbackBaseURLIsUnaffected() async throws {
        defer { fixture.remove(); server.stop() }
        let transport = CurlTransport(connectTimeoutSeconds: 2, environment: [:])
        let answer = try await transport.send(APIRequest(url: "\(server.url)/2/users/me", timeoutSeconds: 5))
        #expect(answer.status == 200 && server.connections == 1)

        var image = APIRequest(url: "\(server.url)/a.png", timeoutSeconds: 5)
        image.addressWall = AddressWall()
        await #expect(throws: TransportError(.addressNotAllowed, "127.0.0.1 is in 127.0.0.0/8 (loopback), which image fetches may not reach")) {
            try await transport.send(image)
        }
        #expect(server.connections == 1)

        image.addressWall = AddressWall(allowsLoopback: true)
        #expect(try await transport.send(image).status == 200)
        #expect(try await transport.send(APIRequest(url: "\(server.url)/2/users/me", timeoutSeconds: 5)).status == 200)
        #expect(server.connections == 3)
    }

    /// Through a proxy (`http_proxy`) twfeed connects only to the proxy, which reaches the
    /// host itself: the wall, which would judge the proxy's own loopback address, is not
    /// applied; with no proxy the same request is walled before any connection.
    @Test func throughAProxyTheWallLeavesTheConnectionToTheProxy() async throws {
        defer { fixture.remove(); server.stop() }
        var image = APIRequest(url: "http://10.255.255.1/profile_images/1/a_normal.png", timeoutSeconds: 5)
        image.addressWall = AddressWall()
        let direct = CurlTransport(connectTimeoutSeconds: 2, environment: [:])
        await #expect(throws: TransportError(.addressNotAllowed, "10.255.255.1 is in 10.0.0.0/8 (private), which image fetches may not reach")) {
            try await direct.send(image)
        }
        #expect(server.connections == 0)

        let proxied = CurlTransport(connectTimeoutSeconds: 2, environment: ["http_proxy": server.url])
        #expect(try await proxied.send(image).status == 200)
        #expect(server.connections == 1, "the proxy, on loopback, was asked")

        // A host the proxy does not serve (`no_proxy`) is connected to directly, and walled.
        let exempt = CurlTransport(connectTimeoutSeconds: 2, environment: ["http_proxy": server.url, "no_proxy": "10.255.255.1"])
        let refused = await #expect(throws: TransportError.self) { try await exempt.send(image) }
        #expect(refused?.kind == .addressNotAllowed, "walled, not merely unreachable: \(String(describing: refused))")
        #expect(server.connections == 1)
    }
}
