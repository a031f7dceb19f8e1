import Foundation
import Testing
import TwfeedEmulator

@Suite struct V2Tests {
    @Test func homePageRoundTripWithIncludes() throws {
        try withEmulator { emulator, client in
            let response = try client.get(homePath, [("max_results", "100")] + clientFields)
            #expect(response.status == 200)
            #expect(response.header("content-type")?.hasPrefix("application/json") == true)
            let data = try #require(response.object["data"] as? [[String: Any]])
            #expect(data.count <= 100 && data.count >= 90, "a page is cut before deleted tweets are dropped")
            #expect(ids(response) == Array(emulator.groundTruth(.home, dialect: .v2).prefix(data.count)))

            let meta = try #require(response.object["meta"] as? [String: Any])
            #expect(meta["result_count"] as? Int == data.count)
            #expect(meta["newest_id"] as? String == ids(response).first)
            #expect(meta["oldest_id"] as? String == ids(response).last)
            #expect(meta["next_token"] is String)

            // Every author and referenced tweet resolves through includes.
            let users = try #require(response.object[path: "includes", "users"] as? [[String: Any]])
            let userIDs = Set(users.compactMap { $0["id"] as? String })
            let included = response.object[path: "includes", "tweets"] as? [[String: Any]] ?? []
            let includedIDs = Set(included.compactMap { $0["id"] as? String })
            let missing = Set((response.object["errors"] as? [[String: Any]] ?? []).compactMap { $0["resource_id"] as? String })
            var kinds: Set<String> = []
            for tweet in data {
                let author = try #require(tweet["author_id"] as? String)
                #expect(userIDs.contains(author))
                #expect(tweet["created_at"] as? String != nil)
                #expect(tweet["conversation_id"] is String)
                #expect((tweet["edit_history_tweet_ids"] as? [String])?.first == tweet["id"] as? String)
                for reference in tweet["referenced_tweets"] as? [[String: Any]] ?? [] {
                    let type = try #require(reference["type"] as? String)
                    let id = try #require(reference["id"] as? String)
                    kinds.insert(type)
                    #expect(includedIDs.contains(id) || missing.contains(id))
                    if type == "retweeted" {
                        let text = try #require(tweet["text"] as? String)
                        #expect(text.hasPrefix("RT @"))
                        let unescaped = text.replacingOccurrences(of: "&lt;", with: "<")
                            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
                        #expect(unescaped.unicodeScalars.count <= 140)
                    }
                    if type == "replied_to" { #expect(tweet["in_reply_to_user_id"] is String) }
                }
            }
            #expect(kinds.isSuperset(of: ["retweeted", "replied_to", "quoted"]))
            for user in users {
                let image = try #require(user["profile_image_url"] as? String)
                #expect(image.hasPrefix("\(emulator.baseURL)/profile_images/\(user["id"] as? String ?? "")/"))
                #expect(image.hasSuffix("_normal.png"))
                #expect(user["username"] is String && user["name"] is String)
            }
            for tweet in included { #expect(userIDs.contains(tweet["author_id"] as? String ?? "")) }
            // created_at looks like 2026-11-21T10:00:00.000Z.
            let created = try #require(data.first?["created_at"] as? String)
            #expect(created.count == 24 && created.hasSuffix(".000Z"))
        }
    }

    @Test func onlyRequestedFieldsComeBack() throws {
        try withEmulator { emulator, client in
            let response = try client.get(homePath, [("max_results", "5")])
            #expect(response.status == 200)
            #expect(response.object["includes"] == nil)
            for tweet in try #require(response.object["data"] as? [[String: Any]]) {
                #expect(Set(tweet.keys) == ["id", "text", "edit_history_tweet_ids"])
            }
            let me = try client.get("/2/users/me")
            #expect(me.object[path: "data", "id"] as? String == Emulator.accountUserID)
            #expect(me.object[path: "data", "username"] as? String == "twfeed_demo")
            #expect(me.object[path: "data", "profile_image_url"] == nil)
            let withImage = try client.get("/2/users/me", [("user.fields", "profile_image_url")])
            #expect((withImage.object[path: "data", "profile_image_url"] as? String)?.hasSuffix("_normal.png") == true)
        }
    }

    /// What twfeed does: walk down with pagination_token, later poll up with since_id
    /// (following next_token within it), and step below a known id with until_id.
    @Test func pagingReachesExactlyTheGroundTruth() throws {
        try withEmulator({ $0.tweetsPerFeed = 230 }) { emulator, client in
            for (feed, path) in [(EmulatorFeed.home, homePath), (.mentions, mentionsPath), (.retweets, "/2/users/reposts_of_me")] {
                var collected: [String] = []
                var token: String?
                var pages = 0
                repeat {
                    var query = [("max_results", "100")] + clientFields
                    if let token { query.append(("pagination_token", token)) }
                    let page = try client.get(path, query)
                    #expect(page.status == 200)
                    collected += ids(page)
                    token = page.object[path: "meta", "next_token"] as? String
                    pages += 1
                } while token != nil && pages < 20
                #expect(collected == emulator.groundTruth(feed, dialect: .v2), "\(feed)")
                #expect(collected.count == 230)
            }

            // since_id: only what is new, newest first, across pages.
            let newest = emulator.groundTruth(.home, dialect: .v2)[0]
            let added = emulator.addTweets(to: .home, count: 12)
            var fresh: [String] = []
            var token: String?
            repeat {
                var query = [("max_results", "5"), ("since_id", newest)]
                if let token { query.append(("pagination_token", token)) }
                let page = try client.get(homePath, query)
                fresh += ids(page)
                token = page.object[path: "meta", "next_token"] as? String
            } while token != nil
            #expect(fresh == added)
            #expect(emulator.groundTruth(.home, dialect: .v2).prefix(12) == added[...])

            // until_id is exclusive.
            let truth = emulator.groundTruth(.mentions, dialect: .v2)
            let below = try client.get(mentionsPath, [("max_results", "5"), ("until_id", truth[10])])
            #expect(ids(below) == Array(truth[11...].prefix(ids(below).count)))
            #expect(!ids(below).isEmpty)
        }
    }

    @Test func homeReachesThe3200Newest() throws {
        try withEmulator({ $0.tweetsPerFeed = 20 }) { emulator, client in
            emulator.addTweets(to: .home, count: 3_300)
            let truth = emulator.groundTruth(.home, dialect: .v2)
            #expect(truth.count == 3_200)
            #expect(emulator.allTweetIDs(.home).count == 3_320)
            #expect(emulator.groundTruth(.home, dialect: .v1_1).count == 800)
            // The last reachable page ends without next_token exactly at the reach.
            let oldest = try client.get(homePath, [("max_results", "100"), ("until_id", truth[3_150])])
            #expect(ids(oldest) == Array(truth[3_151...]))
            #expect(oldest.object[path: "meta", "next_token"] == nil)
        }
    }

    @Test func emptyPageAndInvalidParameters() throws {
        try withEmulator { emulator, client in
            let newest = emulator.groundTruth(.home, dialect: .v2)[0]
            let empty = try client.get(homePath, [("since_id", newest)] + clientFields)
            #expect(empty.status == 200)
            #expect(empty.text == #"{"meta":{"result_count":0}}"#)

            let count = try client.get(homePath, [("count", "20")])
            #expect(count.status == 400)
            let errors = try #require(count.object["errors"] as? [[String: Any]])
            #expect((errors.first?["parameters"] as? [String: Any])?["count"] != nil)
            #expect((errors.first?["message"] as? String)?.contains("[count]") == true)

            #expect(try client.get(mentionsPath, [("max_results", "4")]).status == 400)
            #expect(try client.get(homePath, [("max_results", "101")]).status == 400)
            #expect(try client.get(homePath, [("max_results", "1")]).status == 200)
            #expect(try client.get("/2/users/reposts_of_me", [("since_id", newest)]).status == 400)
            #expect(try client.get(homePath, [("pagination_token", "bogus")]).status == 400)
            #expect(try client.get(homePath, [("tweet.fields", "created_at,nonsense")]).status == 400)
            #expect(try client.get(homePath, [("start_time", "yesterday")]).status == 400)
            #expect(try client.get("/2/users/1234/timelines/reverse_chronological").status == 403)

            let missing = try client.get("/2/no/such/thing")
            #expect(missing.status == 404)
            #expect(missing.object["title"] as? String == "Not Found")
        }
    }

    @Test func excludeAndTimeWindow() throws {
        try withEmulator { emulator, client in
            let page = try client.get(homePath, [("max_results", "100"), ("exclude", "replies,retweets"),
                                                 ("tweet.fields", "referenced_tweets,created_at")])
            for tweet in page.object["data"] as? [[String: Any]] ?? [] {
                let types = (tweet["referenced_tweets"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
                #expect(!types.contains("retweeted") && !types.contains("replied_to"))
            }
            // Excluded tweets are removed after the page is cut: the page is short but goes on.
            #expect(ids(page).count < 100)
            #expect(page.object[path: "meta", "next_token"] is String)

            let all = try client.get(homePath, [("max_results", "100"), ("tweet.fields", "created_at")])
            let dates = (all.object["data"] as? [[String: Any]] ?? []).compactMap { $0["created_at"] as? String }
            let start = dates[40], end = dates[20]
            let window = try client.get(homePath, [("max_results", "100"), ("start_time", String(start.prefix(19)) + "Z"),
                                                   ("end_time", String(end.prefix(19)) + "Z"), ("tweet.fields", "created_at")])
            let inWindow = (window.object["data"] as? [[String: Any]] ?? []).compactMap { $0["created_at"] as? String }
            #expect(!inWindow.isEmpty)
            #expect(inWindow.allSatisfy { $0 >= start && $0 <= end })
        }
    }
}
