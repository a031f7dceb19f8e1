import Foundation
import Testing
import TwfeedEmulator

@Suite struct FaultTests {
    @Test func statusFaultsUseEachDialectsBody() throws {
        try withEmulator { emulator, client in
            emulator.inject(.status(503), times: 2, pathContains: "home_timeline")
            let first = try client.get("/1.1/statuses/home_timeline.json")
            #expect(first.status == 503)
            #expect(first.text == #"{"errors":[{"code":130,"message":"Over capacity"}]}"#)
            #expect(try client.get("/1.1/statuses/mentions_timeline.json").status == 200, "path-scoped")
            #expect(try client.get("/1.1/statuses/home_timeline.json").status == 503)
            #expect(try client.get("/1.1/statuses/home_timeline.json").status == 200, "used up after 2")

            emulator.inject(.status(500))
            let v2 = try client.get(homePath)
            #expect(v2.status == 500)
            #expect(v2.object["status"] as? Int == 500)
            #expect(v2.object["title"] is String)
            #expect(try client.get(homePath).status == 200)
            #expect(emulator.requests.filter { $0.fault == "500" }.count == 1)
        }
    }

    @Test func rateLimitedAndAuthFaults() throws {
        try withEmulator { emulator, client in
            emulator.inject(.rateLimited)
            let limited = try client.get(homePath)
            #expect(limited.status == 429)
            #expect(limited.object["title"] as? String == "Too Many Requests")
            #expect(limited.intHeader("x-rate-limit-remaining") == 0)
            #expect(try client.get(homePath).intHeader("x-rate-limit-remaining") == 179, "the fault used no quota")

            emulator.inject(.rateLimited)
            #expect(try client.get("/1.1/statuses/home_timeline.json").text.contains("\"code\":88"))

            emulator.inject(.authFailure, times: 2)
            let v2 = try client.get("/2/users/me")
            #expect(v2.status == 401 && v2.object["title"] as? String == "Unauthorized")
            let v11 = try client.get("/1.1/account/verify_credentials.json")
            #expect(v11.status == 401 && v11.text.contains("\"code\":32"))
        }
    }

    @Test func resetMidBody() throws {
        try withEmulator { emulator, client in
            emulator.inject(.resetMidBody, pathContains: "reverse_chronological")
            let outcome = try client.exchange("GET", homePath, query: [("max_results", "100")] + clientFields)
            switch outcome {
            case .reset(let received), .closedEarly(let received):
                // Headers (and perhaps part of the body) arrived, never the whole body.
                let text = String(decoding: received, as: UTF8.self)
                if !received.isEmpty { #expect(text.hasPrefix("HTTP/1.1 200")) }
            case .complete:
                Issue.record("expected the connection to be reset mid-body")
            }
            if case .reset = outcome {} else { Issue.record("expected a TCP reset, got \(outcome)") }
            #expect(try client.get(homePath).status == 200)
        }
    }

    @Test func truncatedAndMalformedJSON() throws {
        try withEmulator { emulator, client in
            emulator.inject(.truncatedJSON)
            let truncated = try client.get(homePath, [("max_results", "20")] + clientFields)
            #expect(truncated.status == 200)
            #expect(truncated.intHeader("content-length") == truncated.body.count)
            #expect(truncated.text.hasPrefix("{\"data\":["))
            #expect(truncated.json == nil)

            emulator.inject(.malformedJSON)
            let malformed = try client.get("/1.1/statuses/home_timeline.json")
            #expect(malformed.status == 200)
            #expect(malformed.json == nil)
            #expect(try client.get(homePath).json != nil)
        }
    }

    @Test func slowAnswersAfterTheDelay() throws {
        try withEmulator { emulator, client in
            emulator.inject(.slow(seconds: 0.4))
            let started = Date()
            let response = try client.get("/2/users/me")
            #expect(response.status == 200)
            #expect(Date().timeIntervalSince(started) >= 0.4)
        }
    }

    /// `stop()` must not wait out a slow fault: it closes the connection and returns.
    @Test func stopCutsShortASlowAnswer() throws {
        let emulator = Emulator(configuration: EmulatorConfiguration())
        try emulator.start()
        emulator.inject(.slow(seconds: 60))
        let client = TestClient(emulator: emulator)
        let connection = try TestConnection(port: client.port)
        connection.send(client.requestBytes("GET", "/2/users/me"))
        // Wait until the emulator has taken the request (it is then sleeping on the fault).
        let deadline = Date(timeIntervalSinceNow: 10)
        while emulator.requestCount(pathContains: "/2/users/me") == 0, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let started = Date()
        emulator.stop()
        #expect(Date().timeIntervalSince(started) < 2)
        switch connection.readResponse() {
        case .complete: Issue.record("the slow answer should have been dropped")
        default: break
        }
        #expect(throws: (any Error).self) { try TestConnection(port: client.port) }
    }

    @Test func acceptThenResetStoresThePost() throws {
        try withEmulator { emulator, client in
            emulator.inject(.acceptThenReset, pathContains: "/2/tweets")
            let outcome = try client.exchange("POST", "/2/tweets", json: #"{"text":"did this get through?"}"#)
            guard case .reset(let received) = outcome else {
                Issue.record("expected a reset, got \(outcome)")
                return
            }
            #expect(received.isEmpty)
            #expect(emulator.postedStatuses.map(\.text) == ["did this get through?"])
            let id = try #require(emulator.postedStatuses.first?.id)
            #expect(emulator.groundTruth(.home, dialect: .v2).first == id)
            // A blind retry is a duplicate: the client has to reconcile instead.
            let retry = try client.send("POST", "/2/tweets", json: #"{"text":"did this get through?"}"#)
            #expect(retry.status == 403)
            #expect(retry.object["detail"] as? String == "You are not allowed to create a Tweet with duplicate content.")
        }
    }

    @Test func faultsOnProfileImagesNeedAPath() throws {
        try withEmulator { emulator, client in
            let me = try client.get("/2/users/me", [("user.fields", "profile_image_url")])
            let url = try #require(me.object[path: "data", "profile_image_url"] as? String)
            let path = String(url.dropFirst(emulator.baseURL.count))
            emulator.inject(.status(503))
            #expect(try client.send("GET", path).status == 200, "an unscoped fault waits for an API request")
            #expect(try client.get("/2/users/me").status == 503)
            emulator.inject(.status(503), pathContains: "/profile_images/")
            #expect(try client.send("GET", path).status == 503)
        }
    }
}
