import Foundation
import Testing
import TwfeedEmulator

@Suite struct RateLimitTests {
    @Test func headersCountDownThen429ThenReset() throws {
        try withEmulator({ $0.rateLimitWindowSeconds = 2 }) { emulator, client in
            emulator.setRateLimit(3, for: "home")
            var remaining: [Int] = []
            var reset = 0
            for _ in 0..<3 {
                let response = try client.get(homePath)
                #expect(response.status == 200)
                #expect(response.intHeader("x-rate-limit-limit") == 3)
                remaining.append(response.intHeader("x-rate-limit-remaining") ?? -1)
                reset = response.intHeader("x-rate-limit-reset") ?? 0
            }
            #expect(remaining == [2, 1, 0])
            let limited = try client.get(homePath)
            #expect(limited.status == 429)
            #expect(limited.text == #"{"title":"Too Many Requests","type":"about:blank","status":429,"detail":"Too Many Requests"}"#)
            #expect(limited.intHeader("x-rate-limit-remaining") == 0)
            #expect(limited.header("retry-after") == nil)

            // Other endpoints and the other dialect have their own buckets.
            #expect(try client.get(mentionsPath).status == 200)
            #expect(try client.get("/1.1/statuses/home_timeline.json").intHeader("x-rate-limit-remaining") == 2)

            // The reset header is a promise: once that second has passed on the server's
            // clock, a new window opens. The clock is moved past it rather than waited for.
            let wait = Double(reset) - Date().timeIntervalSince1970
            #expect(wait <= 3)
            emulator.setClockSkew(seconds: max(0, wait) + 0.05)
            let fresh = try client.get(homePath)
            #expect(fresh.status == 200)
            #expect(fresh.intHeader("x-rate-limit-remaining") == 2)
        }
    }

    @Test func realLimitsAreTheDefaults() throws {
        try withEmulator { emulator, client in
            #expect(try client.get(homePath).intHeader("x-rate-limit-limit") == 180)
            #expect(try client.get(mentionsPath).intHeader("x-rate-limit-limit") == 300)
            #expect(try client.get("/2/users/reposts_of_me").intHeader("x-rate-limit-limit") == 75)
            #expect(try client.get("/2/users/me").intHeader("x-rate-limit-limit") == 75)
            #expect(try client.get("/1.1/statuses/home_timeline.json").intHeader("x-rate-limit-limit") == 15)
            #expect(try client.get("/1.1/statuses/mentions_timeline.json").intHeader("x-rate-limit-limit") == 75)
            #expect(try client.get("/1.1/statuses/retweets_of_me.json").intHeader("x-rate-limit-limit") == 75)
            let v11 = try client.get("/1.1/statuses/home_timeline.json")
            #expect(v11.intHeader("x-rate-limit-remaining") == 13)
            let reset = try #require(v11.intHeader("x-rate-limit-reset"))
            #expect(abs(Double(reset) - Date().timeIntervalSince1970 - 900) < 5)
        }
    }

    @Test func v11RateLimitAndPostingLimit() throws {
        try withEmulator { emulator, client in
            emulator.setRateLimit(1, for: "v1.1.mentions")
            emulator.setRateLimit(1, for: "post")
            #expect(try client.get("/1.1/statuses/mentions_timeline.json").status == 200)
            let limited = try client.get("/1.1/statuses/mentions_timeline.json")
            #expect(limited.status == 429)
            #expect(limited.text == #"{"errors":[{"code":88,"message":"Rate limit exceeded"}]}"#)
            #expect(try client.get(mentionsPath).status == 200, "v2 keeps its own limit")

            #expect(try client.send("POST", "/1.1/statuses/update.json", form: [("status", "one")]).status == 200)
            let overPosting = try client.send("POST", "/1.1/statuses/update.json", form: [("status", "two")])
            #expect(overPosting.status == 403)
            #expect(overPosting.text.contains("\"code\":185"))
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"three"}"#).status == 201)
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"four"}"#).status == 429)
            #expect(emulator.postedStatuses.map(\.text) == ["one", "three"])
        }
    }
}
