import Foundation
import Testing
import TwfeedEmulator

@Suite struct V11Tests {
    /// twfeed's v1.1 walk: newest page, then `max_id` = oldest - 1 until a page is empty.
    @Test func pagingWithMaxIDReachesTheGroundTruth() throws {
        try withEmulator({ $0.tweetsPerFeed = 850 }) { emulator, client in
            for (feed, path, count) in [(EmulatorFeed.home, "home_timeline", 200), (.mentions, "mentions_timeline", 200),
                                        (.retweets, "retweets_of_me", 100)] {
                var collected: [String] = []
                var maxID: UInt64?
                for _ in 0..<30 {
                    var query = [("count", String(count)), ("tweet_mode", "extended")]
                    if let maxID { query.append(("max_id", String(maxID))) }
                    let page = try client.get("/1.1/statuses/\(path).json", query)
                    #expect(page.status == 200)
                    let statuses = page.array
                    #expect(statuses.count <= count)
                    if statuses.isEmpty { break }
                    let pageIDs = statuses.compactMap { $0["id_str"] as? String }
                    collected += pageIDs
                    maxID = UInt64(pageIDs.last!)! - 1
                }
                let truth = emulator.groundTruth(feed, dialect: .v1_1)
                // 800 slots, less the tweets deleted since they were placed.
                #expect(truth.count > 760 && truth.count <= 800, "v1.1 reaches about 800 per feed")
                #expect(collected == truth, "\(feed)")
            }

            // since_id is exclusive, max_id inclusive.
            let truth = emulator.groundTruth(.home, dialect: .v1_1)
            let window = try client.get("/1.1/statuses/home_timeline.json",
                                        [("since_id", truth[10]), ("max_id", truth[3]), ("count", "200")])
            #expect(window.array.compactMap { $0["id_str"] as? String } == Array(truth[3..<10]))
            #expect(try client.get("/1.1/statuses/home_timeline.json").array.count == 20, "count defaults to 20")
        }
    }

    @Test func statusObjectShapeAndTruncation() throws {
        try withEmulator { emulator, client in
            let extended = try client.get("/1.1/statuses/home_timeline.json", [("count", "200"), ("tweet_mode", "extended")])
            let compact = try client.get("/1.1/statuses/home_timeline.json", [("count", "200")])
            // ids above 2^53 are sent as raw number literals next to id_str.
            let first = try #require(extended.array.first)
            let idString = try #require(first["id_str"] as? String)
            #expect(UInt64(idString)! > 1 << 53)
            #expect(extended.text.contains("\"id\":\(idString),\"id_str\":\"\(idString)\""))

            var sawLong = false, sawRetweet = false, sawQuote = false, sawEscape = false, sawReply = false
            for (full, short) in zip(extended.array, compact.array) {
                #expect(full["id_str"] as? String == short["id_str"] as? String)
                let fullText = try #require(full["full_text"] as? String)
                let shortText = try #require(short["text"] as? String)
                #expect(full["text"] == nil && short["full_text"] == nil)
                #expect(shortText.unicodeScalars.count <= 140 + 16, "escapes may lengthen the cut text")
                if fullText.unicodeScalars.count > 150 && full["retweeted_status"] == nil {
                    sawLong = true
                    #expect(short["truncated"] as? Bool == true)
                    #expect(shortText.hasSuffix("…"))
                }
                if fullText.contains("&amp;") || fullText.contains("&lt;") { sawEscape = true }
                let created = try #require(full["created_at"] as? String)
                #expect(created.contains("+0000"))
                let user = try #require(full["user"] as? [String: Any])
                #expect(user["id_str"] is String && user["screen_name"] is String)
                #expect((user["profile_image_url_https"] as? String)?.hasPrefix(emulator.baseURL) == true)
                if let original = full["retweeted_status"] as? [String: Any] {
                    sawRetweet = true
                    #expect(fullText.hasPrefix("RT @"))
                    #expect(original["full_text"] is String && original["user"] is [String: Any])
                }
                if full["quoted_status_id_str"] is String {
                    sawQuote = true
                    #expect(full["is_quote_status"] as? Bool == true)
                }
                if let parent = full["in_reply_to_status_id_str"] as? String {
                    sawReply = true
                    let user = try #require(full["in_reply_to_user_id_str"] as? String)
                    // Whom it answers, by name too: the parent's author when the parent exists.
                    let name = try #require(full["in_reply_to_screen_name"] as? String)
                    #expect(!name.isEmpty)
                    if let answered = emulator.tweet(parent) {
                        #expect(answered.authorID == user && answered.authorUsername == name)
                    }
                }
                // Entity indices count the escaped text.
                let entities = try #require(full["entities"] as? [String: Any])
                for mention in entities["user_mentions"] as? [[String: Any]] ?? [] {
                    let indices = try #require(mention["indices"] as? [Int])
                    let scalars = Array(fullText.unicodeScalars)
                    let slice = String(String.UnicodeScalarView(scalars[indices[0]..<indices[1]]))
                    #expect(slice == "@" + (mention["screen_name"] as? String ?? ""))
                }
            }
            #expect(sawLong && sawRetweet && sawQuote && sawEscape && sawReply)

            let me = try client.get("/1.1/account/verify_credentials.json")
            #expect(me.object["id_str"] as? String == Emulator.accountUserID)
            #expect(me.object["screen_name"] as? String == "twfeed_demo")

            let missing = try client.get("/1.1/statuses/nope.json")
            #expect(missing.status == 404)
            #expect(missing.text == #"{"errors":[{"code":34,"message":"Sorry, that page does not exist."}]}"#)
        }
    }
}
