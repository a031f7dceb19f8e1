import Foundation
import Testing
import TwfeedTesting

/// What the reader refuses: other methods, foreign host names, and any path out of the
/// image cache; and the policy every answer carries.
@Suite(.serialized)
struct ReaderSecurityTests {
    static let csp = "default-src 'none'; script-src 'none'; img-src 'self'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    @Test func everyAnswerCarriesAPolicyThatAllowsNoScript() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            for (method, path) in [("GET", "/home"), ("GET", "/search?q=x"), ("GET", "/nothing-here"), ("POST", "/home"),
                                   ("GET", "/avatars/../etc/passwd"), ("GET", "/metrics"), ("GET", "/feeds/home.atom"),
                                   ("GET", "/api/feed/home?limit=0"), ("HEAD", "/home"), ("GET", "/")] {
                let answer = try await reader.request(path, method: method)
                #expect(answer.headers["content-security-policy"] == Self.csp, "\(method) \(path)")
                #expect(answer.headers["x-content-type-options"] == "nosniff", "\(method) \(path)")
            }
        }
    }

    @Test func onlyGetAndHead() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
                let answer = try await reader.request("/home", method: method)
                #expect(answer.status == 405 && answer.headers["allow"] == "GET, HEAD", "\(method)")
            }
            let head = try await reader.request("/home", method: "HEAD")
            #expect(head.status == 200 && head.headers["content-type"] == "text/html; charset=utf-8")
        }
    }

    @Test func avatarsComeFromTheCacheWithTheirRealTypeAndALongCacheLifetime() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            let answer = try await reader.request("/avatars/\(world.aliceAvatarFile)")
            #expect(answer.status == 200 && answer.body == ReaderHarness.png)
            #expect(answer.headers["content-type"] == "image/png")
            #expect(answer.headers["cache-control"] == "public, max-age=31536000, immutable")
            // A GIF stored under a .png name is served as what it is.
            let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 44, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 0, 59]
            let hash = String(repeating: "ab", count: 32)
            let path = "\(world.config.storage.imageCache)/ab/ab/\(hash).png"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(gif).write(to: URL(fileURLWithPath: path))
            let sniffed = try await reader.request("/avatars/ab/ab/\(hash).png")
            #expect(sniffed.status == 200 && sniffed.headers["content-type"] == "image/gif")
        }
    }

    @Test func nothingOutsideTheImageCacheCanBeRead() async throws {
        let world = try await ReaderHarness()
        let cache = world.config.storage.imageCache
        // A picture outside the cache, and links to it planted inside.
        let outside = "\(world.folder)/outside"
        try FileManager.default.createDirectory(atPath: "\(outside)/cd", withIntermediateDirectories: true)
        let hash = "cdcd" + String(repeating: "0", count: 60)
        try Data(ReaderHarness.png).write(to: URL(fileURLWithPath: "\(outside)/secret.png"))
        try Data(ReaderHarness.png).write(to: URL(fileURLWithPath: "\(outside)/cd/\(hash).png"))
        try FileManager.default.createDirectory(atPath: "\(cache)/cd/cd", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(cache)/cd/cd/\(hash).png", withDestinationPath: "\(outside)/secret.png")
        let folderHash = "eeee" + String(repeating: "0", count: 60)
        try FileManager.default.createSymbolicLink(atPath: "\(cache)/ee", withDestinationPath: outside)
        try FileManager.default.createDirectory(atPath: "\(outside)/ee", withIntermediateDirectories: true)
        try Data(ReaderHarness.png).write(to: URL(fileURLWithPath: "\(outside)/ee/\(folderHash).png"))
        let file = world.aliceAvatarFile
        try await world.withReader { reader in
            for path in [
                "/avatars/../twfeed.sqlite", "/avatars/../../../../etc/passwd", "/avatars/%2e%2e/twfeed.sqlite",
                "/avatars/%2E%2E%2Ftwfeed.sqlite", "/avatars/..%2F..%2Fetc%2Fpasswd",
                "/avatars/" + file.replacingOccurrences(of: "/", with: "%2F"),
                "/avatars/" + file.uppercased(), "/avatars//etc/passwd", "/avatars/\(file)/..",
                "/avatars/cd/cd/\(hash).png", "/avatars/ee/ee/\(folderHash).png",
                "/avatars/ab/cd/\(String(repeating: "f", count: 64)).png", "/avatars/", "/avatars/.hidden",
            ] {
                let answer = try await reader.request(path)
                #expect(answer.status == 404, "\(path)")
                #expect(!answer.body.starts(with: ReaderHarness.png.prefix(8)), "\(path) must not give a picture")
            }
        }
    }

    @Test func aForeignHostNameIsRefusedWhileTheReaderIsLoopbackOnly() async throws {
        let world = try await ReaderHarness()
        try await world.withReader { reader in
            for host in ["evil.example", "evil.example:\(reader.port)", "127.0.0.1.evil.example", "10.0.0.1:\(reader.port)", ""] {
                let answer = try await reader.request("/api/feed/home", host: host)
                #expect(answer.status == 421, "Host: \(host)")
                #expect(!answer.text.contains("Plain tweet"))
            }
            for host in ["localhost:\(reader.port)", "127.0.0.1:\(reader.port)", "[::1]:\(reader.port)", "LOCALHOST"] {
                let answer = try await reader.request("/home", host: host)
                #expect(answer.status == 200, "Host: \(host)")
            }
        }
        let open = try await ReaderHarness(allowRemote: true)
        try await open.withReader { reader in
            let answer = try await reader.request("/home", host: "reader.example.net")
            #expect(answer.status == 200)
        }
    }
}
