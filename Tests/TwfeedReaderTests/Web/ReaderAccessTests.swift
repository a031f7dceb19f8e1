import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedReader
import TwfeedReaderTesting
import TwfeedTesting

/// Who gets in (INTERFACE.md, "The reader as the app"): without a session every page,
/// picture and API answers 401; `twfeed open`'s link signs a browser in once; a bearer
/// with the secret lets a script in; an Atom key opens its own feed only.
@Suite(.serialized)
struct ReaderAccessTests {
    static let protected = [
        "/home", "/mentions", "/retweets", "/search?q=coffee", "/api/feed/home", "/api/feed/mentions?limit=1",
        "/feeds/home.atom", "/feeds/retweets.atom", "/compose", "/compose?reply_to=1001", "/outbox", "/",
    ]

    @Test func withoutASessionEveryProtectedRouteIs401AndSaysHowToSignIn() async throws {
        let world = try await ReaderHarness()
        try await world.withReader(signedIn: false) { reader in
            for path in Self.protected + ["/avatars/\(world.aliceAvatarFile)"] {
                let answer = try await reader.request(path)
                #expect(answer.status == 401, "\(path)")
                #expect(answer.text.contains("twfeed open"), "\(path)")
                #expect(!answer.text.contains("Plain tweet") && !answer.text.contains("coffee"), "\(path) shows a tweet")
                #expect(answer.headers["www-authenticate"] == "Bearer realm=\"twfeed\"")
            }
            // A wrong bearer is no bearer.
            let wrong = try await reader.request("/home", headers: ["Authorization": "Bearer " + String(repeating: "0", count: 64)])
            #expect(wrong.status == 401)
            // Open to anyone: health, the stylesheet, and metrics to a peer on this machine.
            #expect([200, 503].contains(try await reader.request("/healthz").status))
            #expect(try await reader.request("/static/style.css").status == 200)
            let metrics = try await reader.request("/metrics")
            #expect(metrics.status == 200 && metrics.text.contains("twfeed_up"))
        }
    }

    @Test func theLoginLinkSignsInOnceAndTheTokenLeavesTheAddress() async throws {
        let world = try await ReaderHarness()
        let keys = ReaderKeys(secret: ReaderSecret(value: try world.secret))
        try await world.withReader(signedIn: false) { reader in
            let token = keys.loginToken(now: Date())
            let login = try await reader.request("/login?token=\(token)")
            #expect(login.status == 303)
            #expect(login.headers["location"] == "/home", "the token stays out of the next address")
            let cookie = try #require(login.headers["set-cookie"])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
            let session = try #require(cookie.split(separator: ";").first.map(String.init))
            let home = try await reader.request("/home", headers: ["Cookie": session])
            #expect(home.status == 200 && home.text.contains("Plain tweet number 1060"))
            #expect(home.text.contains("@me"), "the header names the account")
            #expect(!home.text.contains(token))

            #expect(world.sink.events("http.signed_in").count == 1)
            #expect(!world.sink.lines.joined().contains(token), "the token is never logged")
            // The same link again, a forged one, an expired one: refused, no cookie.
            let replay = try await reader.request("/login?token=\(token)")
            #expect(replay.status == 401 && replay.headers["set-cookie"] == nil)
            let parts = token.split(separator: ".")
            let forged = "\(parts[0]).\(Int(parts[1])! + 3600).\(parts[2])"
            #expect(try await reader.request("/login?token=\(forged)").status == 401)
            let old = keys.loginToken(now: Date().addingTimeInterval(-ReaderKeys.loginLifetime - 5))
            #expect(try await reader.request("/login?token=\(old)").status == 401)
            #expect(try await reader.request("/login").status == 401)
            // A cookie made with another secret is no session.
            let stranger = ReaderKeys(secret: ReaderSecret(value: String(repeating: "ab", count: 32))).session(now: Date())
            #expect(try await reader.request("/home", headers: ["Cookie": "\(ReaderAccess.cookieName)=\(stranger)"]).status == 401)

            // Signing out ends the session in this browser.
            let page = home.text
            let csrf = try #require(ReaderPage.csrf(in: page))
            let out = try await reader.request(
                "/signout", method: "POST",
                headers: ["Cookie": session, "Origin": "http://127.0.0.1:\(reader.port)", "Content-Type": "application/x-www-form-urlencoded"],
                body: "csrf=\(csrf)"
            )
            #expect(out.status == 303 && out.headers["set-cookie"]?.contains("Max-Age=0") == true)
        }
    }

    @Test func aBearerWithTheSecretLetsAScriptIn() async throws {
        let world = try await ReaderHarness()
        let secret = try world.secret
        try await world.withReader(signedIn: false) { reader in
            let api = try await reader.request("/api/feed/home?limit=2", headers: ["Authorization": "Bearer \(secret)"])
            #expect(api.status == 200 && api.text.hasPrefix("["))
        }
        // The secret is the owner's alone.
        var info = stat()
        #expect(stat(ReaderSecret.path(config: world.config), &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func anAtomKeyOpensItsOwnFeedAndNothingElse() async throws {
        let world = try await ReaderHarness()
        let keys = ReaderKeys(secret: ReaderSecret(value: try world.secret))
        try await world.withReader(signedIn: false) { reader in
            let key = keys.atomKey(.home)
            let feed = try await reader.request("/feeds/home.atom?key=\(key)")
            #expect(feed.status == 200 && feed.text.contains("<feed"))
            for path in ["/feeds/mentions.atom?key=\(key)", "/feeds/retweets.atom?key=\(key)", "/home?key=\(key)",
                         "/api/feed/home?key=\(key)", "/feeds/home.atom?key=\(keys.atomKey(.mentions))", "/feeds/home.atom?key="] {
                #expect(try await reader.request(path).status == 401, "\(path)")
            }
        }
    }

    @Test func noneLetsEveryoneReadAndSaysSo() async throws {
        let world = try await ReaderHarness()
        world.config.http.auth = .none
        try await world.withReader(signedIn: false) { reader in
            let home = try await reader.request("/home")
            #expect(home.status == 200 && home.text.contains("no sign-in"))
            // Posting still needs the page's token and the reader's origin.
            let refused = try await reader.request(
                "/compose", method: "POST",
                headers: ["Origin": "http://127.0.0.1:\(reader.port)", "Content-Type": "application/x-www-form-urlencoded"],
                body: "text=hi&action=queue"
            )
            #expect(refused.status == 403)
            #expect(try await world.database.outboxItems().isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: ReaderSecret.path(config: world.config)), "no secret is made for none")
    }

    @Test func aSecretOthersCanReadIsRefused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-secret-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/reader-secret"
        let made = try ReaderSecret.loadOrCreate(path: path)
        #expect(made.value.count == 64)
        #expect(try ReaderSecret.loadOrCreate(path: path).value == made.value, "made once, then read")
        chmod(path, 0o644)
        #expect { try ReaderSecret.load(path: path) } throws: { error in
            (error as? TwfeedError)?.code == .permission && (error as? TwfeedError)?.message.contains("chmod 600") == true
        }
        chmod(path, 0o600)
        try Data("not hex\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        #expect { try ReaderSecret.load(path: path) } throws: { error in (error as? TwfeedError)?.code == .configuration }
    }
}
