import Foundation
import Testing
import TwfeedEmulator

/// Rate-limit answers a long-running client meets sooner or later.
@Suite struct HostileRateLimitTests {
    static let rateHeaders = ["x-rate-limit-limit", "x-rate-limit-remaining", "x-rate-limit-reset"]

    @Test func a429WithoutHeaders() throws {
        try withEmulator { emulator, client in
            emulator.inject(.rateLimitedWithoutHeaders, times: 2)
            let v2 = try client.get(homePath)
            #expect(v2.status == 429 && v2.object["title"] as? String == "Too Many Requests")
            #expect(Self.rateHeaders.allSatisfy { v2.header($0) == nil })
            let v11 = try client.get("/1.1/statuses/mentions_timeline.json")
            #expect(v11.status == 429 && v11.text.contains("\"code\":88"))
            #expect(Self.rateHeaders.allSatisfy { v11.header($0) == nil })
            #expect(try client.get(homePath).intHeader("x-rate-limit-remaining") == 179, "no quota was used")
            #expect(emulator.requests.filter { $0.fault == "429-no-headers" }.count == 2)
        }
    }

    @Test func a429WhoseResetIsInThePast() throws {
        try withEmulator { emulator, client in
            emulator.inject(.rateLimitedWithPastReset(secondsAgo: 120), pathContains: "tweets")
            let limited = try client.send("POST", "/2/tweets", json: #"{"text":"later"}"#)
            #expect(limited.status == 429)
            let serverNow = try #require(limited.header("date").flatMap(parseHTTPDate))
            let reset = try #require(limited.intHeader("x-rate-limit-reset"))
            #expect(abs(Double(reset) - (serverNow.timeIntervalSince1970 - 120)) <= 1)
            #expect(limited.intHeader("x-rate-limit-remaining") == 0)
            #expect(emulator.postedStatuses.isEmpty, "the request was not processed")
        }
    }

    @Test func absurdValuesOn200And429() throws {
        try withEmulator { emulator, client in
            for value in ["inf", "1e19", "-5", "NaN", "", "99999999999999999999"] {
                emulator.inject(.badRateLimitHeader(value: value, rateLimited: false))
                let ok = try client.get(homePath)
                #expect(ok.status == 200 && !ids(ok).isEmpty, "processed normally")
                #expect(ok.header("x-rate-limit-reset") == value)
                #expect(ok.intHeader("x-rate-limit-limit") == 180)

                emulator.inject(.badRateLimitHeader(value: value, header: .all, rateLimited: true))
                let limited = try client.get("/1.1/statuses/home_timeline.json")
                #expect(limited.status == 429 && limited.text.contains("\"code\":88"))
                #expect(Self.rateHeaders.allSatisfy { limited.header($0) == value }, "\(value)")
            }
            #expect(try client.get(homePath).intHeader("x-rate-limit-remaining") == 180 - 7)
        }
    }

    @Test func controlRouteNames() throws {
        try withEmulator { emulator, client in
            let unsigned = TestClient(emulator: emulator, signer: nil)
            for body in [#"{"fault":"429-bad-header","value":"NaN","header":"remaining"}"#,
                         #"{"fault":"bad-header","value":"-5"}"#,
                         #"{"fault":"429-past-reset","seconds":300}"#, #"{"fault":"429-no-headers"}"#] {
                #expect(try unsigned.send("POST", "/_emulator/faults", json: body).status == 200)
            }
            #expect(try unsigned.send("POST", "/_emulator/faults", json: #"{"fault":"bad-header","header":"etag"}"#).status == 400)
            #expect(try unsigned.send("POST", "/_emulator/faults", json: #"{"fault":"429-past-reset","seconds":-1}"#).status == 400)

            let first = try client.get(mentionsPath)
            #expect(first.status == 429 && first.header("x-rate-limit-remaining") == "NaN")
            #expect(first.intHeader("x-rate-limit-limit") == 300)
            let second = try client.get(mentionsPath)
            #expect(second.status == 200 && second.header("x-rate-limit-reset") == "-5")
            let third = try client.get(mentionsPath)
            let serverNow = try #require(third.header("date").flatMap(parseHTTPDate))
            #expect(third.status == 429 && (third.intHeader("x-rate-limit-reset") ?? .max) < Int(serverNow.timeIntervalSince1970) - 290)
            #expect(try client.get(mentionsPath).header("x-rate-limit-reset") == nil)
            #expect(emulator.requests.compactMap(\.fault) == ["429-bad-header", "bad-header", "429-past-reset", "429-no-headers"])
        }
    }
}

/// An RFC 7231 IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
func parseHTTPDate(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.date(from: text)
}
