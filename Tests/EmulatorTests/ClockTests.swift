import Foundation
import Testing
import TwfeedBase
import TwfeedEmulator

/// The server's clock, as a client sees it in the `Date` header.
@Suite struct ClockTests {
    @Test func everyAnswerCarriesTheServersDate() throws {
        try withEmulator { emulator, client in
            let unsigned = TestClient(emulator: emulator, signer: nil)
            for response in [try client.get(homePath), try client.get("/1.1/statuses/home_timeline.json"),
                             try unsigned.get(homePath), try unsigned.get("/_emulator/stats"), try client.get("/2/nope")] {
                let date = try #require(response.header("date").flatMap(parseHTTPDate), "status \(response.status)")
                #expect(abs(date.timeIntervalSinceNow) < 5)
            }
        }
    }

    @Test func aSkewedServerClockMovesDateResetsAndTweetTimes() throws {
        try withEmulator({ $0.clockSkewSeconds = -3_600; $0.timestampToleranceSeconds = 0 }) { emulator, client in
            let page = try client.get(homePath)
            let date = try #require(page.header("date").flatMap(parseHTTPDate))
            #expect(abs(date.timeIntervalSinceNow + 3_600) < 5)
            let reset = try #require(page.intHeader("x-rate-limit-reset"))
            #expect(abs(Double(reset) - date.timeIntervalSince1970 - 900) <= 2, "a full window from the server's now")

            let posted = try client.send("POST", "/2/tweets", json: #"{"text":"what time is it"}"#)
            #expect(posted.status == 201)
            let createdAt = try #require(emulator.postedStatuses.first?.createdAt)
            #expect(abs(createdAt.timeIntervalSinceNow + 3_600) < 5)

            let unsigned = TestClient(emulator: emulator, signer: nil)
            let moved = try unsigned.send("POST", "/_emulator/clock", json: #"{"skewSeconds":120}"#)
            #expect(moved.status == 200 && moved.object["skewSeconds"] as? Double == 120)
            #expect(emulator.clockSkewSeconds == 120)
            let now = try #require((try unsigned.get("/_emulator/clock").object["now"] as? String).flatMap(Timestamp.parseISO8601))
            #expect(abs(now.timeIntervalSinceNow - 120) < 5)
            #expect(try unsigned.send("POST", "/_emulator/clock", json: #"{"skewSeconds":"soon"}"#).status == 400)
        }
    }

    @Test func aSkewBeyondTheTimestampToleranceIsRefusedAsTheAPIDoes() throws {
        try withEmulator({ $0.clockSkewSeconds = 600 }) { _, client in
            let refused = try client.get("/1.1/statuses/home_timeline.json")
            #expect(refused.status == 401 && refused.text.contains("\"code\":135"))
            let date = try #require(refused.header("date").flatMap(parseHTTPDate))
            #expect(abs(date.timeIntervalSinceNow - 600) < 5, "the Date header says how far off the client is")
        }
    }
}
