import Foundation
import Testing
import TwfeedEmulator

/// Tweets whose text and author name a test chooses (markup a reader must show as text):
/// served as the API serves every text, HTML-escaped, so unescaping gives them back exactly.
@Suite struct GivenTextTests {
    static let hostile = #"<img src=x onerror=alert(1)><script>alert(2)</script> & "quoted" &lt;kept&gt; 🦊"#
    static let hostileName = #"<b>Bold</b> & "quoted""#

    /// What a client does with the API's text: `&lt;` `&gt;` then `&amp;`.
    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func theTextComesBackExactlyFromBothDialectsAndTheNameAsIs() throws {
        try withEmulator { emulator, client in
            let id = emulator.addTweet(to: .home, text: Self.hostile, authorName: Self.hostileName)
            #expect(emulator.allTweetIDs(.home).first == id, "at the top of home")
            let stored = try #require(emulator.tweet(id))
            #expect(stored.text == Self.hostile)
            #expect(stored.authorUsername == "hostile_1")

            let v2 = try client.get(homePath, clientFields + [("max_results", "5")])
            let v2Tweet = try #require((v2.object["data"] as? [[String: Any]])?.first)
            #expect(v2Tweet["id"] as? String == id)
            let v2Text = try #require(v2Tweet["text"] as? String)
            #expect(!v2Text.contains("<"), "escaped on the wire, as the API does")
            #expect(Self.unescape(v2Text) == Self.hostile)
            let users = v2.object[path: "includes", "users"] as? [[String: Any]] ?? []
            let author = try #require(users.first { $0["id"] as? String == stored.authorID })
            #expect(author["name"] as? String == Self.hostileName, "names are not escaped")
            #expect(author["username"] as? String == "hostile_1")

            let v11 = try client.get("/1.1/statuses/home_timeline.json", [("count", "5"), ("tweet_mode", "extended")])
            let status = try #require(v11.array.first)
            #expect(status["id_str"] as? String == id)
            #expect((status["full_text"] as? String).map(Self.unescape) == Self.hostile)
            #expect(status[path: "user", "name"] as? String == Self.hostileName)
            let compact = try client.get("/1.1/statuses/home_timeline.json", [("count", "5")])
            #expect((compact.array.first?["text"] as? String).map(Self.unescape) == Self.hostile, "under 140: not cut")

            // The same name again is the same author; another name, another user.
            let again = emulator.addTweet(to: .home, text: "second", authorName: Self.hostileName)
            #expect(emulator.tweet(again)?.authorID == stored.authorID)
            let other = emulator.addTweet(to: .home, text: "third", authorName: "Someone else")
            #expect(emulator.tweet(other)?.authorUsername == "hostile_2")
        }
    }

    @Test func mentionsAndRetweetsOfMeCarryTheTextToo() throws {
        try withEmulator { emulator, client in
            let mention = emulator.addTweet(to: .mentions, text: "@twfeed_demo <i>hi</i>", authorName: "M & M")
            #expect(emulator.groundTruth(.mentions, dialect: .v2).first == mention)
            #expect(emulator.groundTruth(.home, dialect: .v2).first == mention, "its author is followed")
            let mentions = try client.get(mentionsPath, clientFields + [("max_results", "5")])
            let text = (mentions.object["data"] as? [[String: Any]])?.first?["text"] as? String
            #expect(text.map(Self.unescape) == "@twfeed_demo <i>hi</i>")

            let mine = emulator.addTweet(to: .retweets, text: "mine & <yours>")
            #expect(emulator.tweet(mine)?.authorID == Emulator.accountUserID)
            #expect(emulator.tweet(mine)?.retweetCount == 1)
            let reposts = try client.get("/1.1/statuses/retweets_of_me.json", [("count", "5"), ("tweet_mode", "extended")])
            #expect(reposts.array.first?["id_str"] as? String == mine)
            #expect((reposts.array.first?["full_text"] as? String).map(Self.unescape) == "mine & <yours>")
        }
    }

    @Test func theControlRouteAddsOneTweetWithTheText() throws {
        try withEmulator { emulator, _ in
            let unsigned = TestClient(emulator: emulator, signer: nil)
            let body = try JSONSerialization.data(withJSONObject: ["feed": "home", "text": Self.hostile, "authorName": Self.hostileName])
            let added = try unsigned.send("POST", "/_emulator/tweets", json: String(decoding: body, as: UTF8.self))
            #expect(added.status == 200)
            let id = try #require(added.object["id"] as? String)
            #expect(added.object["username"] as? String == "hostile_1")
            #expect(emulator.tweet(id)?.text == Self.hostile)
            #expect(emulator.allTweetIDs(.home).first == id)

            for bad in [#"{"feed":"home","text":""}"#, #"{"feed":"home","text":7}"#,
                        #"{"feed":"home","text":"x","authorName":""}"#,
                        #"{"feed":"retweets","text":"x","authorName":"A"}"#] {
                let refused = try unsigned.send("POST", "/_emulator/tweets", json: bad)
                #expect(refused.status == 400, "\(bad)")
                #expect(refused.object["error"] is String)
            }
            #expect(emulator.allTweetIDs(.home).first == id, "nothing added by a refused request")
            let plain = try unsigned.send("POST", "/_emulator/tweets", json: #"{"feed":"home","count":2}"#)
            #expect((plain.object["ids"] as? [String])?.count == 2, "without text: generated tweets, as before")
        }
    }

    @Test func aQuoteOrRepostCarriesTheTextOfAPostInNoTimeline() throws {
        try withEmulator { emulator, client in
            let quote = emulator.addTweet(text: Self.hostile, authorName: "Quoted <i>one</i>", via: .quote)
            let repost = emulator.addTweet(text: Self.hostile + " again", via: .repost)
            #expect(emulator.allTweetIDs(.home).prefix(2) == [repost.id, quote.id], "the carriers top home")
            for feed in EmulatorFeed.allCases {
                #expect(!emulator.allTweetIDs(feed).contains(quote.original), "the quoted post is in no timeline")
                #expect(!emulator.allTweetIDs(feed).contains(repost.original), "the reposted post is in no timeline")
            }
            let quoted = try #require(emulator.tweet(quote.original))
            #expect(quoted.text == Self.hostile && quoted.authorUsername.hasPrefix("hostile_"))
            #expect(emulator.tweet(quote.id)?.quotedID == quote.original)
            #expect(emulator.tweet(quote.id)?.authorID != quoted.authorID)
            let original = try #require(emulator.tweet(repost.original))
            #expect(emulator.tweet(repost.id)?.retweetOfID == repost.original)
            #expect(emulator.tweet(repost.id)?.authorID != original.authorID, "reposted by another account")

            // v2 sends both originals along in includes.tweets, their text escaped.
            let v2 = try client.get(homePath, clientFields + [("max_results", "5")])
            let included = v2.object[path: "includes", "tweets"] as? [[String: Any]] ?? []
            for id in [quote.original, repost.original] {
                let text = try #require(included.first { $0["id"] as? String == id }?["text"] as? String)
                #expect(!text.contains("<") && Self.unescape(text) == emulator.tweet(id)?.text)
            }

            let control = TestClient(emulator: emulator, signer: nil)
            let body = #"{"feed":"home","text":"<b>x</b>","authorName":"Q","via":"repost"}"#
            let made = try control.send("POST", "/_emulator/tweets", json: body)
            #expect(made.status == 200)
            let id = try #require(made.object["id"] as? String)
            let originalID = try #require(made.object["original"] as? String)
            #expect(emulator.tweet(id)?.retweetOfID == originalID && emulator.tweet(originalID)?.text == "<b>x</b>")
            #expect(made.object["originalUsername"] as? String == emulator.tweet(originalID)?.authorUsername)
            #expect(made.object["username"] as? String == emulator.tweet(id)?.authorUsername)
            for bad in [#"{"feed":"home","text":"x","via":"reply"}"#, #"{"feed":"mentions","text":"x","via":"quote"}"#] {
                #expect(try control.send("POST", "/_emulator/tweets", json: bad).status == 400, "\(bad)")
            }
            #expect(emulator.allTweetIDs(.home).first == id, "nothing added by a refused request")
        }
    }
}
