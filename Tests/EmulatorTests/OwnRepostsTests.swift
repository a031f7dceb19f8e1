import Foundation
import Testing
import TwfeedEmulator

/// The account's own reposts: its newest own posts, which `exclude=retweets` removes after
/// the page is cut, so a page can come back empty and still go on (x-api.md, "X API v2").
@Suite struct OwnRepostsTests {
    /// A run of the account's own reposts (`repostAsAccount`): the own posts with
    /// `exclude=retweets` come back as an empty page (`{"meta":{"result_count":0,...}}`, no
    /// `data`) that carries a `next_token`, and the originals below it follow.
    @Test func ownRepostsMakeAnEmptyPageOfOriginalsThatGoesOn() throws {
        try withEmulator({ $0.tweetsPerFeed = 40 }) { emulator, client in
            let originals = emulator.ownTweetIDs()
            let reposts = emulator.repostAsAccount(count: 100)
            #expect(reposts.count == 100)
            #expect(Array(emulator.ownTweetIDs().prefix(100)) == reposts.reversed())
            #expect(reposts.allSatisfy { emulator.tweet($0)?.retweetOfID != nil })

            let query = [("max_results", "100"), ("exclude", "retweets"), ("tweet.fields", "public_metrics")]
            let empty = try client.get(ownPostsPath, query)
            #expect(empty.status == 200)
            #expect(empty.object["data"] == nil)
            #expect(empty.object[path: "meta", "result_count"] as? Int == 0)
            let token = try #require(empty.object[path: "meta", "next_token"] as? String)
            let next = try client.get(ownPostsPath, query + [("pagination_token", token)])
            #expect(ids(next) == Array(originals.prefix(ids(next).count)))
            #expect(!ids(next).isEmpty)
            #expect(try client.get(ownPostsPath, [("max_results", "100")]).object["data"] as? [[String: Any]] != nil)

            let unsigned = TestClient(emulator: emulator, signer: nil)
            let answer = try unsigned.send("POST", "/_emulator/own-reposts", json: #"{"count":2}"#)
            #expect((answer.object["ids"] as? [String])?.count == 2)
            #expect(try unsigned.send("POST", "/_emulator/own-reposts", json: #"{"count":0}"#).status == 400)
            // Another user reposting an old post of mine never picks one of my reposts.
            let old = try #require(emulator.retweetOldTweet())
            #expect(emulator.tweet(old)?.retweetOfID == nil)
        }
    }
}
