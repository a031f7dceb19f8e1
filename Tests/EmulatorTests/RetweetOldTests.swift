import Foundation
import Testing
import TwfeedEmulator

/// An old tweet retweeted today: below `since_id` in v1.1; in v2 by post id too by default
/// (the API does not document reposts_of_me's order), on top with `.byLastRepost`.
@Suite struct RetweetOldTests {
    @Test func v11ListsItByIdBelowSinceID() throws {
        try withEmulator({ $0.tweetsPerFeed = 60 }) { emulator, client in
            let path = "/1.1/statuses/retweets_of_me.json"
            let first = try client.get(path, [("count", "100")]).array.compactMap { $0["id_str"] as? String }
            let sinceID = try #require(first.first)
            let listed = Set(emulator.allTweetIDs(.retweets))
            let old = try #require(emulator.ownTweetIDs().last { !listed.contains($0) })
            let count = try #require(emulator.tweet(old)).retweetCount
            #expect(emulator.retweetOldTweet(old) == old)
            #expect(UInt64(old)! < UInt64(sinceID)!)
            #expect(emulator.tweet(old)?.retweetCount == count + 1)

            // A client that only asks above since_id never sees it…
            #expect(try client.get(path, [("since_id", sinceID)]).array.isEmpty)
            // …one that walks the whole list does, with its new count.
            var found: [String: Any]?
            var maxID: String?
            for _ in 0..<10 where found == nil {
                var query = [("count", "100")]
                if let maxID { query.append(("max_id", maxID)) }
                let page = try client.get(path, query).array
                found = page.first { $0["id_str"] as? String == old }
                guard let last = page.last?["id_str"] as? String, let value = UInt64(last), page.count > 1 else { break }
                maxID = String(value - 1)
            }
            #expect(found?["retweet_count"] as? Int == count + 1)
            #expect(emulator.groundTruth(.retweets, dialect: .v1_1).contains(old))
            #expect(emulator.groundTruth(.retweets, dialect: .v1_1) == emulator.groundTruth(.retweets, dialect: .v1_1)
                .sorted { UInt64($0)! > UInt64($1)! })
        }
    }

    /// By default v2 lists by post id, as v1.1 does: the old post sits where its id puts it.
    @Test func v2ListsByPostIDByDefault() throws {
        try withEmulator({ $0.tweetsPerFeed = 60 }) { emulator, client in
            let newest = try #require(emulator.groundTruth(.retweets, dialect: .v2).first)
            let old = try #require(emulator.retweetOldTweet())
            let listed = emulator.groundTruth(.retweets, dialect: .v2)
            #expect(listed.first == newest && listed.contains(old))
            #expect(listed == listed.sorted { UInt64($0)! > UInt64($1)! })
            let page = try client.get("/2/users/reposts_of_me", [("max_results", "5")])
            #expect(ids(page).first == newest && !ids(page).contains(old))
        }
    }

    @Test func v2WithTheLastRepostOrderListsItFirstAndPagesStayWhole() throws {
        try withEmulator({
            $0.tweetsPerFeed = 60
            $0.repostsOrder = .byLastRepost
        }) { emulator, client in
            let newest = try #require(emulator.groundTruth(.retweets, dialect: .v2).first)
            let old = try #require(emulator.retweetOldTweet(), "by default, the oldest tweet of mine not listed")
            #expect(UInt64(old)! < UInt64(newest)!)
            #expect(!emulator.allTweetIDs(.retweets).dropFirst().contains(old))
            let page = try client.get("/2/users/reposts_of_me", [("max_results", "5"), ("tweet.fields", "public_metrics")])
            #expect(ids(page).first == old)
            let data = try #require(page.object["data"] as? [[String: Any]])
            let stored = try #require(emulator.tweet(old))
            #expect((data[0]["public_metrics"] as? [String: Any])?["retweet_count"] as? Int == stored.retweetCount)
            #expect(stored.retweetCount >= 1)

            // Retweeted again later, an already listed tweet moves back to the top.
            let listed = emulator.groundTruth(.retweets, dialect: .v2)[30]
            let count = try #require(emulator.tweet(listed)).retweetCount
            #expect(emulator.retweetOldTweet(listed) == listed)
            #expect(emulator.tweet(listed)?.retweetCount == count + 1)
            #expect(emulator.groundTruth(.retweets, dialect: .v2).prefix(2) == [listed, old])

            var collected: [String] = [], token: String?, pages = 0
            repeat {
                var query = [("max_results", "7")]
                if let token { query.append(("pagination_token", token)) }
                let page = try client.get("/2/users/reposts_of_me", query)
                collected += ids(page)
                token = page.object[path: "meta", "next_token"] as? String
                pages += 1
            } while token != nil && pages < 50
            #expect(collected == emulator.groundTruth(.retweets, dialect: .v2))
            #expect(Set(collected).count == 61)
        }
    }

    @Test func onlyTheAccountsOwnOriginalsAndTheControlRoute() throws {
        try withEmulator({ $0.tweetsPerFeed = 30 }) { emulator, client in
            #expect(emulator.retweetOldTweet("42") == nil)
            #expect(emulator.retweetOldTweet("not a number") == nil)
            let others = try #require(emulator.groundTruth(.mentions, dialect: .v2).first)
            #expect(emulator.retweetOldTweet(others) == nil)

            let unsigned = TestClient(emulator: emulator, signer: nil)
            let answer = try unsigned.send("POST", "/_emulator/retweet-old", json: "{}")
            let id = try #require(answer.object["id"] as? String)
            #expect(emulator.groundTruth(.retweets, dialect: .v2).contains(id))
            #expect(emulator.tweet(id)?.authorUsername == Emulator.accountUsername)
            #expect(try unsigned.send("POST", "/_emulator/retweet-old", json: #"{"id":"x"}"#).status == 400)
            #expect(try unsigned.send("POST", "/_emulator/retweet-old", json: #"{"id":"42"}"#).status == 404)
        }
    }
}
