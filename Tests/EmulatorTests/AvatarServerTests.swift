import Foundation
import Testing
import TwfeedEmulator

/// The emulator's image host: validators, pictures that change, and bad answers on demand.
@Suite struct AvatarServerTests {
    /// A followed author of home and their picture's path.
    func someAuthor(_ emulator: Emulator, _ client: TestClient) throws -> (id: String, path: String) {
        let page = try client.get(homePath, [("max_results", "5")] + clientFields)
        let users = try #require(page.object[path: "includes", "users"] as? [[String: Any]])
        let user = try #require(users.first { ($0["id"] as? String) != Emulator.accountUserID })
        let id = try #require(user["id"] as? String)
        let url = try #require(user["profile_image_url"] as? String)
        #expect(emulator.profileImageURL(ofUser: id) == url)
        return (id, String(url.dropFirst(emulator.baseURL.count)))
    }

    var plain: (Emulator) -> TestClient { { TestClient(emulator: $0, signer: nil) } }

    @Test func lastModifiedAndIfModifiedSinceGiveA304() throws {
        try withEmulator { emulator, client in
            let (_, path) = try someAuthor(emulator, client)
            let image = try plain(emulator).get(path)
            let lastModified = try #require(image.header("last-modified"))
            #expect(lastModified.hasSuffix(" GMT"))
            let same = try plain(emulator).send("GET", path, headers: [("If-Modified-Since", lastModified)])
            #expect(same.status == 304 && same.body.isEmpty)
            let older = try plain(emulator).send("GET", path, headers: [("If-Modified-Since", "Thu, 01 Jan 2004 00:00:00 GMT")])
            #expect(older.status == 200 && older.body == image.body)
            // If-None-Match decides when both are sent.
            let stale = try plain(emulator).send("GET", path, headers: [("If-None-Match", "\"other\""), ("If-Modified-Since", lastModified)])
            #expect(stale.status == 200)
        }
    }

    @Test func aNewPictureAtANewURLRetiresTheOldOne() throws {
        try withEmulator { emulator, client in
            let (id, path) = try someAuthor(emulator, client)
            let newURL = try #require(emulator.changeProfileImageURL(ofUser: id))
            #expect(newURL != emulator.baseURL + path && newURL.hasSuffix("_normal.png"))
            #expect(try plain(emulator).get(path).status == 404)
            let fresh = try plain(emulator).get(String(newURL.dropFirst(emulator.baseURL.count)))
            #expect(fresh.status == 200 && fresh.body == emulator.profileImageBytes(ofUser: id))
            // The author's next tweet carries the new URL.
            let added = try #require(emulator.addTweets(to: .home, count: 1, by: id))
            let page = try client.get(homePath, [("max_results", "5")] + clientFields)
            #expect((page.object["data"] as? [[String: Any]])?.first?["id"] as? String == added.first)
            let users = try #require(page.object[path: "includes", "users"] as? [[String: Any]])
            #expect(users.first { $0["id"] as? String == id }?["profile_image_url"] as? String == newURL)
        }
    }

    @Test func newBytesBehindTheSameURLHaveANewETagAndLastModified() throws {
        try withEmulator { emulator, client in
            let (id, path) = try someAuthor(emulator, client)
            let before = try plain(emulator).get(path)
            let etag = try #require(before.header("etag"))
            #expect(emulator.changeProfileImageBytes(ofUser: id))
            let after = try plain(emulator).send("GET", path, headers: [("If-None-Match", etag)])
            #expect(after.status == 200 && after.body != before.body && after.header("etag") != etag)
            #expect(after.header("content-type") == "image/png")
            #expect(Array(after.body.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            let since = try #require(before.header("last-modified"))
            #expect(try plain(emulator).send("GET", path, headers: [("If-Modified-Since", since)]).status == 200)
            #expect(try plain(emulator).send("GET", path, headers: [("If-None-Match", after.header("etag")!)]).status == 304)

            // Exact bytes for two users: the same picture.
            let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]
            let other = try #require(emulator.allTweetIDs(.home).lazy.compactMap { emulator.tweet($0)?.authorID }.first { $0 != id && $0 != Emulator.accountUserID })
            #expect(emulator.setProfileImage(ofUser: id, bytes: gif, contentType: "image/gif"))
            #expect(emulator.setProfileImage(ofUser: other, bytes: gif, contentType: "image/gif"))
            let mine = try plain(emulator).get(path)
            let theirs = try plain(emulator).get(String(emulator.profileImageURL(ofUser: other)!.dropFirst(emulator.baseURL.count)))
            #expect(mine.body == gif && theirs.body == gif && mine.header("content-type") == "image/gif")
        }
    }

    @Test func badImagesOnDemand() throws {
        try withEmulator { emulator, client in
            let (id, path) = try someAuthor(emulator, client)
            func get() throws -> TestResponse { try plain(emulator).get(path) }

            emulator.serveBadImage(.wrongType, forUser: id)
            #expect(try get().header("content-type")?.hasPrefix("text/html") == true)
            emulator.serveBadImage(.mismatchedType, forUser: id)
            let mismatched = try get()
            #expect(mismatched.header("content-type") == "image/png" && Array(mismatched.body.prefix(6)) == Array("GIF89a".utf8))
            emulator.serveBadImage(.oversize, forUser: id)
            let oversize = try get()
            #expect(oversize.intHeader("content-length") == 6 << 20 && oversize.body.count == 6 << 20)
            emulator.serveBadImage(.redirectDisallowed, forUser: id)
            let redirect = try get()
            #expect(redirect.status == 302 && redirect.header("location")?.hasPrefix("http://169.254.169.254/") == true)
            emulator.serveBadImage(.redirectLoop, forUser: id)
            #expect(try get().header("location") == emulator.baseURL + path)

            emulator.serveBadImage(.oversizeUnannounced, forUser: id)
            let connection = try TestConnection(port: emulator.port)
            connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let head = try #require(connection.readResponse().response)
            #expect(head.status == 200 && head.header("content-length") == nil && head.header("connection") == "close")

            emulator.serveBadImage(.slow(seconds: 0.3), forUser: id)
            let started = Date()
            let slow = try get()
            #expect(Date().timeIntervalSince(started) >= 0.3)
            #expect(slow.status == 200 && slow.body == emulator.profileImageBytes(ofUser: id))

            emulator.clearBadImages()
            #expect(try get().header("content-type") == "image/png")
            // A rule can also match by path, for any user.
            emulator.serveBadImage(.wrongType, pathContains: "/profile_images/")
            #expect(try get().header("content-type")?.hasPrefix("text/html") == true)
            emulator.clearBadImages()
            #expect(emulator.imageBodyBytesSent > 6 << 20)
        }
    }

    @Test func controlRoutesDriveTheImages() throws {
        try withEmulator { emulator, client in
            let (id, path) = try someAuthor(emulator, client)
            let control = plain(emulator)
            let bad = try control.send("POST", "/_emulator/images", json: #"{"user":"\#(id)","action":"bad","bad":"wrong-type"}"#)
            #expect(bad.status == 200)
            #expect(try control.get(path).header("content-type")?.hasPrefix("text/html") == true)
            #expect(try control.send("DELETE", "/_emulator/images").status == 200)
            #expect(try control.get(path).header("content-type") == "image/png")
            let byPath = try control.send("POST", "/_emulator/images", json: #"{"path":"/profile_images/","action":"bad","bad":"slow","seconds":0.1}"#)
            #expect(byPath.status == 200)
            #expect(try control.send("DELETE", "/_emulator/images").status == 200)
            let changed = try control.send("POST", "/_emulator/images", json: #"{"user":"\#(id)","action":"change-url"}"#)
            #expect(changed.object["url"] as? String == emulator.profileImageURL(ofUser: id))
            #expect(try control.get(path).status == 404)
            #expect(try control.send("POST", "/_emulator/images", json: #"{"user":"\#(id)","action":"change-bytes"}"#).status == 200)
            #expect(try control.send("POST", "/_emulator/images", json: #"{"user":"\#(id)","action":"bad","bad":"nope"}"#).status == 400)
            #expect(try control.send("POST", "/_emulator/images", json: #"{"user":"1","action":"change-url"}"#).status == 404)
            #expect(try control.get("/_emulator/stats").object[path: "imageBodyBytesSent"] as? Int ?? 0 > 0)
        }
    }

    @Test func extraUsersMakeManyAuthors() throws {
        try withEmulator({ $0.extraUsers = 300; $0.tweetsPerFeed = 600 }) { emulator, _ in
            let authors = Set(emulator.allTweetIDs(.home).compactMap { emulator.tweet($0)?.authorID })
            #expect(authors.count > 150)
            #expect(emulator.profileImageURL(ofUser: authors.first!) != nil)
        }
    }
}
