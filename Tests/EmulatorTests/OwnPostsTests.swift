import Foundation
import Testing
import TwfeedBase
import TwfeedEmulator

let ownPostsPath = "/2/users/\(Emulator.accountUserID)/tweets"

/// The own-posts timelines: how a client settles a post whose answer it never got.
@Suite struct OwnPostsTests {
    @Test func v2OwnPostsListPostedStatusesNewestFirst() throws {
        try withEmulator({ $0.tweetsPerFeed = 40 }) { emulator, client in
            let before = emulator.ownTweetIDs()
            #expect(!before.isEmpty, "seeded history has tweets of mine")
            let first = try client.send("POST", "/2/tweets", json: #"{"text":"Fish & chips <3 \#(UUID())"}"#)
            let second = try client.send("POST", "/1.1/statuses/update.json", form: [("status", "second one")])
            let firstID = try #require(first.object[path: "data", "id"] as? String)
            let secondID = try #require(second.object["id_str"] as? String)

            let page = try client.get(ownPostsPath, [("max_results", "5")] + clientFields)
            #expect(page.status == 200)
            #expect(page.intHeader("x-rate-limit-limit") == 900)
            #expect(Array(ids(page).prefix(2)) == [secondID, firstID])
            let data = try #require(page.object["data"] as? [[String: Any]])
            #expect((data[1]["text"] as? String)?.hasPrefix("Fish &amp; chips &lt;3") == true, "escaped as the API does")
            #expect(data.allSatisfy { $0["author_id"] as? String == Emulator.accountUserID })
            let posted = try #require(emulator.postedStatuses.first)
            #expect(data[1]["created_at"] as? String == Timestamp.iso8601Milliseconds(posted.createdAt))

            // Settling a lost answer: only what came after the attempt.
            let newer = try client.get(ownPostsPath, [("since_id", before[0]), ("max_results", "100")])
            #expect(ids(newer) == [secondID, firstID])
            let after = try client.get(ownPostsPath, [("start_time", Timestamp.iso8601Milliseconds(posted.createdAt))])
            #expect(ids(after).contains(firstID) && !ids(after).contains(before[0]))

            // Walking every page gives exactly the account's tweets.
            var collected: [String] = [], token: String?, pages = 0
            repeat {
                var query = [("max_results", "7")]
                if let token { query.append(("pagination_token", token)) }
                let page = try client.get(ownPostsPath, query)
                collected += ids(page)
                token = page.object[path: "meta", "next_token"] as? String
                pages += 1
            } while token != nil && pages < 500
            #expect(collected == emulator.ownTweetIDs())
            #expect(collected.count == before.count + 2)
            #expect(try client.get("/_emulator/stats").object[path: "requests", "ownPosts"] as? Int == pages + 3)
        }
    }

    @Test func v2OwnPostsParametersAndOtherUsers() throws {
        try withEmulator({ $0.tweetsPerFeed = 20 }) { emulator, client in
            #expect(try client.get(ownPostsPath, [("max_results", "4")]).status == 400)
            #expect(try client.get(ownPostsPath, [("max_results", "101")]).status == 400)
            #expect(try client.get(ownPostsPath, [("count", "5")]).status == 400)
            #expect(try client.get(ownPostsPath, [("exclude", "likes")]).status == 400)
            #expect(try client.get("/2/users/abc/tweets").status == 400)
            let someoneElse = try #require(emulator.tweet(emulator.groundTruth(.mentions, dialect: .v2)[0])).authorID
            #expect(try client.get("/2/users/\(someoneElse)/tweets").status == 403)
            let unknown = try client.get("/2/users/12345/tweets")
            #expect(unknown.status == 200 && unknown.object["data"] == nil)
            #expect((unknown.object["errors"] as? [[String: Any]])?.first?["resource_type"] as? String == "user")

            let noReplies = try client.get(ownPostsPath, [("max_results", "100"), ("exclude", "replies"),
                                                          ("tweet.fields", "referenced_tweets")])
            let data = noReplies.object["data"] as? [[String: Any]] ?? []
            #expect(!data.isEmpty && data.allSatisfy { $0["referenced_tweets"] == nil })
            var unsigned = client
            unsigned.signer = nil
            #expect(try unsigned.get(ownPostsPath).status == 401)
        }
    }

    @Test func v11UserTimelineListsPostedStatuses() throws {
        try withEmulator({ $0.tweetsPerFeed = 30 }) { emulator, client in
            let newestBefore = try #require(emulator.ownTweetIDs().first)
            let posted = try client.send("POST", "/1.1/statuses/update.json", form: [("status", "x < y & z")])
            let id = try #require(posted.object["id_str"] as? String)
            let path = "/1.1/statuses/user_timeline.json"
            let page = try client.get(path, [("user_id", Emulator.accountUserID), ("count", "5"), ("tweet_mode", "extended")])
            #expect(page.status == 200)
            #expect(page.intHeader("x-rate-limit-limit") == 900)
            #expect(page.array.first?["id_str"] as? String == id)
            #expect(page.array.first?["full_text"] as? String == "x &lt; y &amp; z")
            #expect(page.array.count == 5)

            #expect(try client.get(path, [("since_id", newestBefore)]).array.compactMap { $0["id_str"] as? String } == [id])
            let below = try client.get(path, [("max_id", newestBefore), ("count", "2")]).array.compactMap { $0["id_str"] as? String }
            #expect(below == Array(emulator.ownTweetIDs().dropFirst().prefix(2)))
            #expect(try client.get(path, [("count", "500")]).array.count == min(200, emulator.ownTweetIDs().count))
            #expect(try client.get(path, [("screen_name", Emulator.accountUsername)]).status == 200)

            let someoneElse = try #require(emulator.tweet(emulator.groundTruth(.mentions, dialect: .v1_1)[0])).authorID
            #expect(try client.get(path, [("user_id", someoneElse)]).status == 401)
            let unknown = try client.get(path, [("user_id", "12345")])
            #expect(unknown.status == 404 && unknown.text.contains("\"code\":34"))
        }
    }
}
