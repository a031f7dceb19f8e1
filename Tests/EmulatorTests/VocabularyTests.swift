import Foundation
import Testing
import TwfeedEmulator

/// `EmulatorConfiguration.vocabulary`: v2 answers in the names of X's OpenAPI document
/// of August 2026, asked the way the API has always been asked; v1.1 is unchanged.
@Suite struct VocabularyTests {
    static let fields: [(String, String)] = [
        ("tweet.fields", "created_at,author_id,conversation_id,referenced_tweets,entities,note_tweet,public_metrics"),
        ("expansions", "referenced_tweets.id"),
    ]

    @Test func thePostVocabularyRenamesEveryPostField() throws {
        try withEmulator({ $0.vocabulary = .post }) { emulator, client in
            let page = try client.get(homePath, [("max_results", "100")] + Self.fields)
            #expect(page.status == 200)
            for old in ["\"referenced_tweets\":", "\"note_tweet\":", "\"edit_history_tweet_ids\":", "\"retweet_count\":", "\"tweets\":"] {
                #expect(!page.text.contains(old), "\(old)")
            }
            let data = try #require(page.object["data"] as? [[String: Any]])
            #expect(data.contains { $0["referenced_posts"] != nil })
            #expect(data.contains { $0["note_post"] != nil })
            #expect(data.allSatisfy { ($0["edit_history_post_ids"] as? [String])?.first == $0["id"] as? String })
            #expect(data.allSatisfy { ($0["public_metrics"] as? [String: Any])?["repost_count"] is Int })
            #expect((page.object[path: "includes", "posts"] as? [Any])?.isEmpty == false)

            // Problem types move to api.x.com; the control route switches back.
            let unknown = try client.get(homePath, [("max_results", "100"), ("tweet.fields", "no_such_field")])
            #expect(unknown.status == 400 && unknown.text.contains("https://api.x.com/2/problems/"))
            #expect(!unknown.text.contains("api.twitter.com/2/problems"))
            let control = TestClient(emulator: emulator, signer: nil)
            #expect(try control.get("/_emulator/vocabulary").text == #"{"vocabulary":"post"}"#)
            #expect(try control.send("POST", "/_emulator/vocabulary", json: #"{"vocabulary":"tweet"}"#).status == 200)
            #expect(emulator.vocabulary == .tweet)
            let old = try client.get(homePath, [("max_results", "100")] + Self.fields)
            #expect(old.text.contains("\"referenced_tweets\":") && !old.text.contains("\"referenced_posts\":"))
            #expect(try control.send("POST", "/_emulator/vocabulary", json: #"{"vocabulary":"x"}"#).status == 400)
        }
    }

    @Test func v11AnswersAreTheSameInEitherVocabulary() throws {
        let answers = try [EmulatorVocabulary.tweet, .post].map { vocabulary in
            try withEmulator({ settings in
                settings.vocabulary = vocabulary
                settings.timestampToleranceSeconds = 0
                settings.clock = { Date(timeIntervalSince1970: 1_800_000_000) }
            }) { emulator, client in
                // The same answer but for the port in each emulator's picture URLs.
                try client.get("/1.1/statuses/home_timeline.json", [("count", "50"), ("tweet_mode", "extended")]).text
                    .replacingOccurrences(of: emulator.baseURL, with: "BASE")
            }
        }
        let same = answers[0] == answers[1]
        #expect(same)
        #expect(answers[0].contains("\"retweet_count\":"))
    }
}
