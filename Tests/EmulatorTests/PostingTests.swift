import Foundation
import Testing
import TwfeedEmulator

@Suite struct PostingTests {
    @Test func v2PostStoresTheStatusInHome() throws {
        try withEmulator { emulator, client in
            let response = try client.send("POST", "/2/tweets", json: #"{"text":"Hello from twfeed & friends 👋"}"#)
            #expect(response.status == 201)
            let id = try #require(response.object[path: "data", "id"] as? String)
            #expect(response.object[path: "data", "text"] as? String == "Hello from twfeed &amp; friends 👋")
            #expect(emulator.postedStatuses.count == 1)
            #expect(emulator.postedStatuses[0].id == id && emulator.postedStatuses[0].dialect == .v2)
            #expect(emulator.postedStatuses[0].text == "Hello from twfeed & friends 👋")
            #expect(emulator.groundTruth(.home, dialect: .v2).first == id)
            #expect(UInt64(id)! > UInt64(emulator.allTweetIDs(.mentions).first!)!)
            let home = try client.get(homePath, [("max_results", "5")] + clientFields)
            #expect(ids(home).first == id)

            let duplicate = try client.send("POST", "/2/tweets", json: #"{"text":"Hello from twfeed & friends 👋"}"#)
            #expect(duplicate.status == 403)
            #expect(duplicate.object["detail"] as? String == "You are not allowed to create a Tweet with duplicate content.")
            #expect(duplicate.object["title"] as? String == "Forbidden")
            #expect(emulator.postedStatuses.count == 1)
        }
    }

    @Test func v2RepliesAndRejections() throws {
        try withEmulator { emulator, client in
            let target = emulator.groundTruth(.mentions, dialect: .v2)[0]
            let reply = try client.send("POST", "/2/tweets",
                                        json: #"{"text":"thanks!! \#(UUID())","reply":{"in_reply_to_tweet_id":"\#(target)"}}"#)
            #expect(reply.status == 201)
            #expect(emulator.postedStatuses.last?.inReplyToID == target)
            let stored = try #require(emulator.tweet(emulator.postedStatuses.last!.id))
            #expect(stored.inReplyToID == target && stored.authorUsername == "twfeed_demo")

            let unknown = try client.send("POST", "/2/tweets",
                                          json: #"{"text":"to nowhere","reply":{"in_reply_to_tweet_id":"42"}}"#)
            #expect(unknown.status == 403)

            let long = String(repeating: "a", count: 281)
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"\#(long)"}"#).status == 403)
            // 140 CJK characters weigh 280: allowed; one more is not.
            let cjk = String(repeating: "字", count: 140)
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"\#(cjk)"}"#).status == 201)
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"\#(cjk)字"}"#).status == 403)
            #expect(try client.send("POST", "/2/tweets", json: #"{"nope":1}"#).status == 400)
            // A seeded status of mine is a duplicate too.
            let mine = try #require(emulator.tweet(emulator.groundTruth(.retweets, dialect: .v2)[0]))
            let escaped = mine.text.replacingOccurrences(of: "\"", with: "\\\"")
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"\#(escaped)"}"#).status == 403)
        }
    }

    @Test func v11UpdateAndErrorCodes() throws {
        try withEmulator { emulator, client in
            let posted = try client.send("POST", "/1.1/statuses/update.json", form: [("status", "v1.1 <works> too")])
            #expect(posted.status == 200)
            let id = try #require(posted.object["id_str"] as? String)
            #expect(posted.object["text"] as? String == "v1.1 &lt;works&gt; too")
            #expect((posted.object["user"] as? [String: Any])?["screen_name"] as? String == "twfeed_demo")
            #expect(emulator.postedStatuses.last?.id == id && emulator.postedStatuses.last?.dialect == .v1_1)

            let duplicate = try client.send("POST", "/1.1/statuses/update.json", form: [("status", "v1.1 <works> too")])
            #expect(duplicate.status == 403)
            #expect(duplicate.text == #"{"errors":[{"code":187,"message":"Status is a duplicate."}]}"#)

            let tooLong = try client.send("POST", "/1.1/statuses/update.json",
                                          form: [("status", String(repeating: "é", count: 281))])
            #expect(tooLong.status == 403 && tooLong.text.contains("\"code\":186"))

            let reply = try client.send("POST", "/1.1/statuses/update.json",
                                        form: [("status", "@someone hi"), ("in_reply_to_status_id", "12345")])
            #expect(reply.status == 403 && reply.text.contains("\"code\":385"))

            let target = emulator.groundTruth(.home, dialect: .v1_1)[3]
            let good = try client.send("POST", "/1.1/statuses/update.json",
                                       form: [("status", "a real reply"), ("in_reply_to_status_id", target)])
            #expect(good.status == 200)
            #expect(good.object["in_reply_to_status_id_str"] as? String == target)
            #expect(emulator.postedStatuses.count == 2)
        }
    }
}
