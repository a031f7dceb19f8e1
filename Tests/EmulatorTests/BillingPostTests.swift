import Foundation
import Testing
import TwfeedEmulator

/// What posts cost, and the reply permission of self-serve accounts.
@Suite struct BillingPostTests {
    /// Posts `text` (as a reply to `replyTo`) in `dialect`; returns the status.
    private func post(_ client: TestClient, _ dialect: EmulatorDialect, _ text: String,
                      replyTo: String? = nil) throws -> TestResponse {
        switch dialect {
        case .v2:
            let body: [String: Any] = replyTo.map { ["text": text, "reply": ["in_reply_to_tweet_id": $0]] } ?? ["text": text]
            let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            return try client.send("POST", "/2/tweets", json: json)
        case .v1_1:
            return try client.send("POST", "/1.1/statuses/update.json",
                                   form: [("status", text)] + (replyTo.map { [("in_reply_to_status_id", $0)] } ?? []))
        }
    }

    private func succeeded(_ response: TestResponse, _ dialect: EmulatorDialect) -> Bool {
        response.status == (dialect == .v2 ? 201 : 200)
    }

    @Test(arguments: EmulatorDialect.allCases)
    func eachPostIsChargedByItsKind(_ dialect: EmulatorDialect) throws {
        try withBillingEmulator { emulator, client in
            // Another user's post that does not summon the account, and one that mentions it.
            let plain = emulator.addTweet(to: .home, text: "Nothing to do with anyone")
            let summons = emulator.addTweet(to: .mentions, text: "@twfeed_demo what do you make of this?")

            let cases: [(text: String, replyTo: String?, kind: EmulatorResourceKind, micros: Int)] = [
                ("A status without a link", nil, .postCreate, Rate.postCreate),
                ("A link: https://example.org/page", nil, .postCreateWithURL, Rate.postCreateWithURL),
                ("A bare domain counts: example.com", nil, .postCreateWithURL, Rate.postCreateWithURL),
                ("Not a domain: example.", nil, .postCreate, Rate.postCreate),
                ("@someone a reply to a post that did not summon me", plain, .postCreate, Rate.postCreate),
                ("@someone a summoned reply", summons, .postCreateSummoned, Rate.postCreateSummoned),
                ("@someone a summoned reply with example.net", summons, .postCreateWithURL, Rate.postCreateWithURL),
            ]
            var expected = 0
            for item in cases {
                let answer = try post(client, dialect, item.text, replyTo: item.replyTo)
                #expect(succeeded(answer, dialect), "\(item.text): \(answer.text)")
                expected += item.micros
                let bill = emulator.bill()
                #expect(bill.totalMicros == expected, "\(item.text)")
            }
            let bill = emulator.bill()
            for kind in [EmulatorResourceKind.postCreate, .postCreateWithURL, .postCreateSummoned] {
                #expect(bill.total.count(kind) == cases.filter { $0.kind == kind }.count, "\(kind)")
            }
            #expect(bill.endpoint(.post).requests == cases.count)
            #expect(bill.total.count(.postRead) == 0 && bill.total.count(.userRead) == 0,
                    "a post's answer is not billed as reads")

            // A refused post (a duplicate) costs nothing; the same kind again is charged again.
            #expect(!succeeded(try post(client, dialect, "A status without a link"), dialect))
            #expect(emulator.bill().totalMicros == expected)
            #expect(succeeded(try post(client, dialect, "Another status without a link"), dialect))
            #expect(emulator.bill().totalMicros == expected + Rate.postCreate, "posts are never deduplicated")
        }
    }

    @Test func repliesMustBeSummonedWhenTheAccountIsSelfServe() throws {
        try withBillingEmulator({ $0.billing.repliesRequireSummons = true }) { emulator, client in
            let plain = emulator.addTweet(to: .home, text: "Nobody asked")
            let summons = emulator.addTweet(to: .mentions, text: "Hey @twfeed_demo, thoughts?")

            let v2 = try post(client, .v2, "@someone uninvited", replyTo: plain)
            #expect(v2.status == 403)
            #expect(v2.object["title"] as? String == "Forbidden")
            #expect(v2.object["detail"] as? String == "Reply to this conversation is not allowed because you have not "
                    + "been mentioned or otherwise engaged by the author of the post you are replying to.")
            let v11 = try post(client, .v1_1, "@someone uninvited too", replyTo: plain)
            #expect(v11.status == 403)
            let error = try #require((v11.object["errors"] as? [[String: Any]])?.first)
            #expect(error["code"] as? Int == 433)
            #expect((error["message"] as? String)?.hasPrefix("Reply to this conversation is not allowed") == true)
            #expect(emulator.postedStatuses.isEmpty && emulator.bill().totalMicros == 0, "refused, not billed")

            // Summoned replies, replies to the account's own posts and plain posts go through.
            #expect(succeeded(try post(client, .v2, "@someone invited", replyTo: summons), .v2))
            let mine = try #require(emulator.ownTweetIDs().first)
            #expect(succeeded(try post(client, .v1_1, "and a thread of mine", replyTo: mine), .v1_1))
            #expect(succeeded(try post(client, .v2, "no reply at all"), .v2))
            #expect(emulator.bill().totalMicros == Rate.postCreateSummoned + 2 * Rate.postCreate)

            emulator.setRepliesRequireSummons(false)
            #expect(succeeded(try post(client, .v2, "@someone now allowed", replyTo: plain), .v2))
        }
    }

    @Test func aPostWhoseAnswerIsLostIsStillCharged() throws {
        try withBillingEmulator { emulator, client in
            emulator.inject(.acceptThenReset, pathContains: "/2/tweets")
            let outcome = try client.exchange("POST", "/2/tweets", json: #"{"text":"did it go through?"}"#)
            #expect(outcome.response == nil)
            #expect(emulator.postedStatuses.count == 1)
            #expect(emulator.bill().totalMicros == Rate.postCreate, "the server did the work and billed it")
        }
    }
}
