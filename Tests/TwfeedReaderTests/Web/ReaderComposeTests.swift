import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedReader
import TwfeedReaderTesting
import TwfeedTesting

/// Posting from the reader: the compose page checks and queues as `twfeed post` does,
/// replies start with the author's @name, the outbox page cancels and retries; and no
/// request changes anything without the page's token from the reader's own origin.
@Suite(.serialized)
struct ReaderComposeTests {
    /// A browser signed in by the login link: its cookie, the page's form token, and
    /// the headers its forms send.
    struct Browser {
        var reader: ReaderClient
        var cookie: String
        var csrf: String

        var formHeaders: [String: String] {
            ["Cookie": cookie, "Origin": "http://127.0.0.1:\(reader.port)", "Content-Type": "application/x-www-form-urlencoded"]
        }

        func get(_ path: String) async throws -> RawHTTP.Response {
            try await reader.request(path, headers: ["Cookie": cookie])
        }

        func post(_ path: String, _ fields: [(String, String)], headers: [String: String]? = nil) async throws -> RawHTTP.Response {
            let body = fields.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
            return try await reader.request(path, method: "POST", headers: headers ?? formHeaders, body: body)
        }

        static func encode(_ text: String) -> String {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._*")
            return text.addingPercentEncoding(withAllowedCharacters: allowed)!.replacingOccurrences(of: "%20", with: "+")
        }

        static func signIn(_ world: ReaderHarness, reader: ReaderClient) async throws -> Browser {
            let keys = ReaderKeys(secret: ReaderSecret(value: try world.secret))
            let login = try await reader.request("/login?token=\(keys.loginToken(now: Date()))")
            let setCookie: String = try #require(login.headers["set-cookie"])
            let cookie = String(try #require(setCookie.split(separator: ";").first))
            let page = try await reader.request("/compose", headers: ["Cookie": cookie])
            return Browser(reader: reader, cookie: cookie, csrf: try #require(ReaderPage.csrf(in: page.text)))
        }
    }

    @Test func checkShowsTheLengthTheVerdictAndThePrice() async throws {
        let world = try await ReaderHarness()
        try await world.withReader(signedIn: false) { reader in
            let browser = try await Browser.signIn(world, reader: reader)
            let page = try await browser.get("/compose")
            #expect(page.status == 200 && page.text.contains(#"<textarea id="text" name="text""#))
            #expect(page.text.contains(#"value="check""#) && page.text.contains(#"value="queue""#))

            let plain = try await browser.post("/compose", [("text", "Hello there"), ("action", "check"), ("csrf", browser.csrf)])
            #expect(plain.status == 200)
            #expect(plain.text.contains(#"<span class="weighted">11</span>/<span class="max">280</span>"#))
            #expect(plain.text.contains("Valid: it can be queued.") && plain.text.contains(#"<span class="price">$0.015</span>"#))
            let link = try await browser.post("/compose", [("text", "read example.com/a"), ("action", "check"), ("csrf", browser.csrf)])
            #expect(link.text.contains(#"<span class="price">$0.200</span> (it holds a URL)"#))
            let long = try await browser.post("/compose", [("text", String(repeating: "a", count: 281)), ("action", "check"), ("csrf", browser.csrf)])
            #expect(long.text.contains("Not valid: status is 281/280 characters."))
            #expect(try await world.database.outboxItems().isEmpty, "a check queues nothing")
        }
    }

    @Test func queueGoesToTheOutboxAndInvalidTextComesBackWithTheReason() async throws {
        let world = try await ReaderHarness()
        try await world.withReader(signedIn: false) { reader in
            let browser = try await Browser.signIn(world, reader: reader)
            // Line breaks come from a browser as CRLF; the status keeps the user's LF.
            let queued = try await browser.post("/compose", [("text", "two\r\nlines"), ("action", "queue"), ("csrf", browser.csrf)])
            #expect(queued.status == 303 && queued.headers["location"] == "/outbox")
            let items = try await world.database.outboxItems()
            #expect(items.map(\.text) == ["two\nlines"] && items.first?.state == .pending)
            #expect(world.rings.withLock { $0 } == 1, "the outbox was rung")

            let hostile = ReaderHarness.hostileText + String(repeating: "x", count: 300)
            let refused = try await browser.post("/compose", [("text", hostile), ("action", "queue"), ("csrf", browser.csrf)])
            #expect(refused.status == 422 && refused.text.contains("Not queued: status is"))
            #expect(refused.text.contains("&lt;script&gt;alert(2)&lt;/script&gt;") && !refused.text.contains("<script>"), "the text comes back as text")
            let blank = try await browser.post("/compose", [("text", "  "), ("action", "queue"), ("csrf", browser.csrf)])
            #expect(blank.status == 422 && blank.text.contains("Not queued: status is empty."))
            #expect(try await world.database.outboxItems().count == 1, "invalid text is never queued")

            let outbox = try await browser.get("/outbox")
            #expect(outbox.status == 200 && outbox.text.contains(#"<td class="state">pending</td>"#))
            #expect(outbox.text.contains(#"<td class="cost">$0.015</td>"#) && outbox.text.contains("two\nlines"))
        }
    }

    @Test func noFormChangesAnythingWithoutItsTokenFromTheReadersOwnOrigin() async throws {
        let world = try await ReaderHarness()
        try await world.withReader(signedIn: false) { reader in
            let browser = try await Browser.signIn(world, reader: reader)
            let other = try await Browser.signIn(world, reader: reader)
            let own = "http://127.0.0.1:\(reader.port)"
            let attempts: [(String, [(String, String)], [String: String])] = [
                ("no token", [("text", "a"), ("action", "queue")], browser.formHeaders),
                ("another session's token", [("text", "b"), ("action", "queue"), ("csrf", other.csrf)], browser.formHeaders),
                ("a foreign origin", [("text", "c"), ("action", "queue"), ("csrf", browser.csrf)],
                 ["Cookie": browser.cookie, "Origin": "http://evil.example", "Content-Type": "application/x-www-form-urlencoded"]),
                ("a page with no-referrer (Origin: null)", [("text", "d"), ("action", "queue"), ("csrf", browser.csrf)],
                 ["Cookie": browser.cookie, "Origin": "null", "Content-Type": "application/x-www-form-urlencoded"]),
                ("no Origin nor Referer", [("text", "e"), ("action", "queue"), ("csrf", browser.csrf)],
                 ["Cookie": browser.cookie, "Content-Type": "application/x-www-form-urlencoded"]),
                ("a foreign Referer", [("text", "f"), ("action", "queue"), ("csrf", browser.csrf)],
                 ["Cookie": browser.cookie, "Referer": "http://127.0.0.1:\(reader.port).evil.example/x", "Content-Type": "application/x-www-form-urlencoded"]),
                ("another port", [("text", "g"), ("action", "queue"), ("csrf", browser.csrf)],
                 ["Cookie": browser.cookie, "Origin": "http://127.0.0.1:1", "Content-Type": "application/x-www-form-urlencoded"]),
            ]
            for (what, fields, headers) in attempts {
                let answer = try await browser.post("/compose", fields, headers: headers)
                #expect(answer.status == 403, "\(what): \(answer.status)")
            }
            #expect(try await world.database.outboxItems().isEmpty, "nothing was queued")
            #expect(world.rings.withLock { $0 } == 0)
            #expect(world.sink.events("http.refused").count == attempts.count, "each refusal is in the log")
            #expect(world.sink.events("http.refused").contains { $0.contains("origin=http://evil.example") })
            // A same-origin Referer (a browser that sends no Origin) is the reader's own.
            let referred = try await browser.post("/compose", [("text", "h"), ("action", "queue"), ("csrf", browser.csrf)],
                                                  headers: ["Cookie": browser.cookie, "Referer": "\(own)/compose", "Content-Type": "application/x-www-form-urlencoded"])
            #expect(referred.status == 303)
            // GET changes nothing: the outbox's actions are POST only.
            let item = try #require(try await world.database.outboxItems().first)
            let get = try await browser.get("/outbox/\(item.id)/cancel")
            #expect(get.status != 303 && get.status != 200)
            #expect(try await world.database.outboxItem(item.id)?.state == .pending)
        }
    }

    @Test func aReplyShowsThePostStartsWithTheNameAndWarnsWhenNotSummoned() async throws {
        let world = try await ReaderHarness()
        try await world.withReader(signedIn: false) { reader in
            let browser = try await Browser.signIn(world, reader: reader)
            // 1001 is in the mentions: a summoned reply, no warning.
            let summoned = try await browser.get("/compose?reply_to=1001")
            #expect(summoned.status == 200 && summoned.text.contains("Plain tweet number 1001 about coffee"))
            #expect(summoned.text.contains("\n@alice </textarea>") && !summoned.text.contains(#"class="warning""#))
            #expect(summoned.text.contains(#"name="reply_to" value="1001""#))
            // 1002 did not mention the account.
            let unsummoned = try await browser.get("/compose?reply_to=1002")
            #expect(unsummoned.text.contains(#"<p class="warning">@alice did not mention you: with self-serve API access X may refuse this reply. If it does, the outbox shows the reason X gives.</p>"#))
            #expect(try await browser.get("/compose?reply_to=abc").status == 400)
            // Every tweet links to its reply.
            #expect(try await browser.get("/home").text.contains(#"<a class="reply" href="/compose?reply_to=1060">Reply</a>"#))

            let check = try await browser.post("/compose", [("text", "@alice yes"), ("reply_to", "1001"), ("action", "check"), ("csrf", browser.csrf)])
            #expect(check.text.contains(#"<span class="price">$0.010</span> (a reply to a post that mentions you)"#))
            let queued = try await browser.post("/compose", [("text", "@alice sure"), ("reply_to", "1002"), ("action", "queue"), ("csrf", browser.csrf)])
            #expect(queued.status == 303)
            #expect(try await world.database.outboxItems().map(\.replyToID) == [TweetID(1002)])
        }
    }

    @Test func theOutboxPageCancelsAndRetriesAsTheCommandsDo() async throws {
        let world = try await ReaderHarness()
        let pending = try await world.database.enqueue(text: "to cancel", replyTo: nil, now: Date())
        let failed = try await world.database.enqueue(text: "to retry", replyTo: nil, now: Date())
        try await world.database.transitionOutbox(failed.id, from: [.pending], to: .failed, changes: [.lastError(OutboxFailure(stored: "403 Forbidden: not allowed"))])
        let sent = try await world.database.enqueue(text: "gone", replyTo: nil, now: Date())
        try await world.database.transitionOutbox(sent.id, from: [.pending], to: .sent, changes: [.sentTweetID(TweetID(777))])
        try await world.withReader(signedIn: false) { reader in
            let browser = try await Browser.signIn(world, reader: reader)
            let page = try await browser.get("/outbox").text
            #expect(page.contains("403 Forbidden: not allowed") && page.contains(#"href="https://x.com/i/web/status/777""#))
            #expect(page.contains(#"action="/outbox/\#(pending.id)/cancel""#) && !page.contains(#"action="/outbox/\#(sent.id)/cancel""#))
            #expect(page.contains(#"action="/outbox/\#(failed.id)/retry""#) && !page.contains(#"action="/outbox/\#(pending.id)/retry""#))
            #expect(page.contains(#"<td class="expires"><time"#), "a pending status says when it expires")

            #expect(try await browser.post("/outbox/\(pending.id)/cancel", [("csrf", browser.csrf)]).status == 303)
            #expect(try await world.database.outboxItem(pending.id)?.state == .cancelled)
            #expect(try await browser.post("/outbox/\(failed.id)/retry", [("csrf", browser.csrf)]).status == 303)
            #expect(try await world.database.outboxItem(failed.id)?.state == .pending)
            let wrong = try await browser.post("/outbox/\(sent.id)/cancel", [("csrf", browser.csrf)])
            #expect(wrong.status == 409 && wrong.text.contains("only pending, failed or blocked statuses can be cancelled"))
            #expect(try await world.database.outboxItem(sent.id)?.state == .sent)
            #expect(try await browser.post("/outbox/\(sent.id)/cancel", []).status == 403, "no token")
        }
    }
}
