import Foundation
import Testing
import TwfeedEmulator

/// What a tweet points at: reply chains whose ancestors are in no timeline, posts that
/// are gone (deleted, protected, suspended) as lookups report them, and long posts whose
/// whole text is `note_tweet`, given only when asked for.
@Suite struct ConversationTests {
    static let lookupFields: [(String, String)] = [
        ("tweet.fields", "created_at,author_id,conversation_id,referenced_tweets,note_tweet"),
        ("expansions", "author_id,referenced_tweets.id,referenced_tweets.id.author_id"),
        ("user.fields", "username"),
    ]

    static func everyFeed(_ emulator: Emulator) -> Set<String> {
        Set(EmulatorFeed.allCases.flatMap { emulator.allTweetIDs($0) })
    }

    @Test func aReplyChainsAncestorsAreInNoTimeline() throws {
        try withEmulator({ $0.tweetsPerFeed = 30 }) { emulator, client in
            let chain = try #require(emulator.addReplyChain(to: .home, depth: 5))
            #expect(chain.ancestors.count == 5)
            #expect(emulator.groundTruth(.home, dialect: .v2).first == chain.id)
            #expect(Self.everyFeed(emulator).isDisjoint(with: chain.ancestors))
            var child = chain.id
            for ancestor in chain.ancestors {
                #expect(emulator.tweet(child)?.inReplyToID == ancestor)
                #expect(emulator.tweet(ancestor)?.authorID != emulator.tweet(child)?.authorID, "nobody answers themselves")
                child = ancestor
            }
            #expect(emulator.tweet(chain.ancestors.last!)?.inReplyToID == nil, "the root")

            let found = try client.get("/2/tweets", [("ids", chain.ancestors.joined(separator: ","))] + Self.lookupFields)
            let data = try #require(found.object["data"] as? [[String: Any]])
            #expect(data.compactMap { $0["id"] as? String } == chain.ancestors)
            #expect(data.allSatisfy { $0["conversation_id"] as? String == chain.ancestors.last })
            #expect(found.object["errors"] == nil)

            let mention = try #require(emulator.addReplyChain(to: .mentions, depth: 2))
            #expect(emulator.groundTruth(.mentions, dialect: .v1_1).first == mention.id)
            #expect(emulator.tweet(mention.id)?.text.contains("@twfeed_demo") == true)
            #expect(Self.everyFeed(emulator).isDisjoint(with: mention.ancestors))
            #expect(emulator.addReplyChain(to: .retweets, depth: 2) == nil)
            #expect(emulator.addReplyChain(to: .home, depth: 0) == nil)
        }
    }

    @Test func theSeedMakesAFewThreadsWhoseMiddleIsInNoTimeline() {
        let emulator = Emulator(configuration: EmulatorConfiguration())
        let home = emulator.allTweetIDs(.home)
        let everywhere = Self.everyFeed(emulator)
        let deep = home.filter { id in
            guard let parent = emulator.tweet(id)?.inReplyToID, !everywhere.contains(parent) else { return false }
            return emulator.tweet(parent)?.inReplyToID != nil
        }
        #expect(!deep.isEmpty, "a reply in home whose parent, itself a reply, is in no timeline")
    }

    @Test func theControlRoutesMakeChainsDeleteAndShowPosts() throws {
        try withEmulator({ $0.tweetsPerFeed = 20 }) { emulator, client in
            let control = TestClient(emulator: emulator, signer: nil)
            let made = try control.send("POST", "/_emulator/reply-chain", json: #"{"feed":"home","depth":3}"#)
            #expect(made.status == 200)
            let id = try #require(made.object["id"] as? String)
            let ancestors = try #require(made.object["ancestors"] as? [String])
            #expect(ancestors.count == 3 && emulator.tweet(id)?.inReplyToID == ancestors[0])
            #expect(try control.send("POST", "/_emulator/reply-chain", json: #"{"feed":"retweets"}"#).status == 400)
            #expect(try control.send("POST", "/_emulator/reply-chain", json: #"{"feed":"home","depth":51}"#).status == 400)

            let gone = try control.send("POST", "/_emulator/delete", json: #"{"id":"\#(ancestors[1])","reason":"protected"}"#)
            #expect(gone.status == 200 && gone.object["reason"] as? String == "protected")
            #expect(emulator.tweet(ancestors[1])?.unavailable == .protected)
            #expect(try control.send("POST", "/_emulator/delete", json: #"{"id":"\#(id)","reason":"lost"}"#).status == 400)
            #expect(try control.send("POST", "/_emulator/delete", json: #"{"id":"12"}"#).status == 404)

            let shown = try control.send("GET", "/_emulator/tweets/\(ancestors[1])")
            #expect(shown.object["unavailable"] as? String == "protected")
            #expect(shown.object["inReplyToId"] as? String == ancestors[2])
            #expect(try control.send("GET", "/_emulator/tweets/12").status == 404)
        }
    }

    @Test func v2LookupsSayWhyAPostIsGone() throws {
        try withBillingEmulator { emulator, client in
            let chain = try #require(emulator.addReplyChain(to: .home, depth: 4))
            let (deleted, protected, suspended, kept) = (chain.ancestors[0], chain.ancestors[1], chain.ancestors[2], chain.ancestors[3])
            #expect(emulator.deleteTweet(deleted))
            #expect(emulator.deleteTweet(protected, reason: .protected))
            #expect(emulator.deleteTweet(suspended, reason: .suspended))
            #expect(!emulator.deleteTweet("12"))

            let answer = try client.get("/2/tweets", [("ids", chain.ancestors.joined(separator: ","))] + Self.lookupFields)
            #expect(ids(answer) == [kept])
            let errors = try #require(answer.object["errors"] as? [[String: Any]])
            func error(_ id: String) -> [String: Any]? { errors.first { $0["resource_id"] as? String == id && $0["parameter"] as? String == "ids" } }
            #expect(error(deleted)?["title"] as? String == "Not Found Error")
            #expect(error(protected)?["title"] as? String == "Authorization Error")
            #expect((error(protected)?["detail"] as? String)?.contains("not authorized") == true)
            #expect(error(suspended)?["title"] as? String == "Forbidden")
            #expect((error(suspended)?["detail"] as? String)?.contains("suspended") == true)

            // The new reply points at the deleted post: the timeline's partial error says so.
            let home = try client.get(homePath, [("max_results", "5")] + Self.lookupFields)
            #expect((home.object["errors"] as? [[String: Any]] ?? []).contains {
                $0["resource_id"] as? String == deleted && $0["parameter"] as? String == "referenced_tweets.id"
            })
            #expect(!ids(home).contains(deleted))

            let single = try client.get("/2/tweets/\(protected)", Self.lookupFields)
            #expect(single.object["data"] == nil && (single.object["errors"] as? [[String: Any]])?.first?["title"] as? String == "Authorization Error")

            // Only what came back is billed, as post reads to the lookup endpoint.
            let bill = emulator.bill().endpoint(.lookup)
            let served = V2Resources(answer)
            #expect(bill.count(.postRead) == served.allPosts.count)
            #expect(bill.count(.userRead) == Set(served.users).count)
            #expect(bill.count(.ownedRead) == 0)
        }
    }

    @Test func v11LookupsLeaveGonePostsOutAndShowSaysWhy() throws {
        try withEmulator({ $0.tweetsPerFeed = 20 }) { emulator, client in
            let chain = try #require(emulator.addReplyChain(to: .home, depth: 3))
            emulator.deleteTweet(chain.ancestors[0])
            emulator.deleteTweet(chain.ancestors[1], reason: .protected)
            let mapped = try client.get(
                "/1.1/statuses/lookup.json",
                [("id", chain.ancestors.joined(separator: ",")), ("map", "true"), ("tweet_mode", "extended")]
            )
            let map = try #require(mapped.object["id"] as? [String: Any])
            #expect(map[chain.ancestors[0]] is NSNull && map[chain.ancestors[1]] is NSNull)
            #expect((map[chain.ancestors[2]] as? [String: Any])?["id_str"] as? String == chain.ancestors[2])
            #expect(try client.get("/1.1/statuses/show.json", [("id", chain.ancestors[0])]).status == 404)
            let refused = try client.get("/1.1/statuses/show.json", [("id", chain.ancestors[1])])
            #expect(refused.status == 403 && refused.text.contains("\"code\":179"))
        }
    }

    @Test func aLongPostsWholeTextIsGivenOnlyWhenAskedFor() throws {
        try withEmulator({ $0.tweetsPerFeed = 20 }) { emulator, client in
            let whole = String(repeating: "Long posts & their whole text <b>kept</b>. ", count: 12) + "The end."
            let id = emulator.addTweet(to: .home, text: whole)
            let stored = try #require(emulator.tweet(id))
            #expect(stored.longText == whole && stored.text.hasSuffix("…") && stored.text.unicodeScalars.count <= 280)

            let asked = try client.get("/2/tweets/\(id)", [("tweet.fields", "note_tweet")])
            let data = try #require(asked.object["data"] as? [String: Any])
            let escaped = whole.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            #expect(data[path: "note_tweet", "text"] as? String == escaped)
            #expect((data["text"] as? String)?.hasSuffix("…") == true)
            let unasked = try client.get("/2/tweets/\(id)", [("tweet.fields", "created_at")])
            #expect((unasked.object["data"] as? [String: Any])?["note_tweet"] == nil)

            let v11 = try client.get("/1.1/statuses/show.json", [("id", id), ("tweet_mode", "extended")])
            #expect((v11.object["full_text"] as? String)?.hasSuffix("…") == true, "v1.1 knows no note tweets")
            #expect(v11.object["note_tweet"] == nil)

            // The seed makes a few long posts by others too.
            let seeded = Emulator(configuration: EmulatorConfiguration())
            let everything = EmulatorFeed.allCases.flatMap { seeded.allTweetIDs($0) }.compactMap { seeded.tweet($0) }
            let referenced = everything.compactMap(\.retweetOfID) + everything.compactMap(\.quotedID) + everything.compactMap(\.inReplyToID)
            #expect((everything + referenced.compactMap { seeded.tweet($0) }).contains { $0.longText != nil })
        }
    }
}
