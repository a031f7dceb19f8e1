import Foundation
import Testing
import TwfeedEmulator

/// A v2 `pagination_token` belongs to the query that produced it: the emulator refuses
/// one handed back with other bounds, as x-api.md's invalid parameters are refused.
@Suite struct PagingRulesTests {
    /// A token handed back with other bounds is refused (400, the `errors` array naming
    /// `pagination_token`), on every endpoint that pages by token; with the same bounds it
    /// is served, whatever `max_results` and the fields ask.
    @Test func aTokenIsRefusedWithOtherBoundsThanTheQueryThatMadeIt() throws {
        try withEmulator({ $0.tweetsPerFeed = 60 }) { emulator, client in
            let truth = emulator.groundTruth(.home, dialect: .v2)
            let bound = truth[5]
            let first = try client.get(homePath, [("max_results", "10"), ("until_id", bound)])
            let token = try #require(first.object[path: "meta", "next_token"] as? String)
            let oldest = try #require(ids(first).last)

            let moved = try client.get(homePath, [("max_results", "10"), ("until_id", oldest), ("pagination_token", token)])
            #expect(moved.status == 400)
            let errors = try #require(moved.object["errors"] as? [[String: Any]])
            #expect((errors.first?["parameters"] as? [String: Any])?["pagination_token"] != nil)
            #expect((errors.first?["message"] as? String)?.contains("does not belong to this query") == true)
            #expect(moved.object["title"] as? String == "Invalid Request")

            for other in [
                [("since_id", truth[40])], [("until_id", bound), ("since_id", truth[40])], [], [("until_id", bound), ("exclude", "replies")],
            ] {
                let answer = try client.get(homePath, [("max_results", "10"), ("pagination_token", token)] + other)
                #expect(answer.status == 400, "\(other)")
            }
            #expect(try client.get(mentionsPath, [("max_results", "10"), ("until_id", bound), ("pagination_token", token)]).status == 400)

            let same = try client.get(homePath, [("max_results", "25"), ("until_id", bound), ("pagination_token", token)] + clientFields)
            #expect(same.status == 200)
            #expect(ids(same) == Array(truth.drop(while: { $0 != oldest }).dropFirst().prefix(ids(same).count)))

            // The own posts with `exclude`, in any order, and reposts_of_me's positions.
            let own = try client.get(ownPostsPath, [("max_results", "5"), ("exclude", "retweets,replies")])
            let ownToken = try #require(own.object[path: "meta", "next_token"] as? String)
            #expect(try client.get(ownPostsPath, [("exclude", "replies,retweets"), ("pagination_token", ownToken)]).status == 200)
            #expect(try client.get(ownPostsPath, [("pagination_token", ownToken)]).status == 400)
            let reposts = try client.get("/2/users/reposts_of_me", [("max_results", "5")])
            let repostsToken = try #require(reposts.object[path: "meta", "next_token"] as? String)
            #expect(try client.get("/2/users/reposts_of_me", [("pagination_token", repostsToken)]).status == 200)
            #expect(try client.get(homePath, [("pagination_token", repostsToken)]).status == 400)
        }
    }
}
