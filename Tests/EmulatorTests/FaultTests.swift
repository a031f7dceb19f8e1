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

    /// Each billing refusal fault answers, in both dialects, byte for byte what the billing
    /// side answers when the account is in that state (the same body, content type and
    /// healthy window headers), is recorded under its name and costs nothing. The cycle
    /// starts on the 26th, so the console's spend cap lifts tomorrow, as the fault's does.
    @Test(arguments: Fault.Kind.allCases.filter(\.isBillingRefusal).flatMap(\.examples))
    func billingRefusalFaultsAnswerTheRefusalsOwnBody(_ fault: Fault) throws {
        try withBillingEmulator({ $0.billing.cycleStartDay = 26 }) { emulator, client in
            emulator.setRefusalShape(fault.refusalShape ?? .dialect)
            let pages: [(name: String, path: String, get: () throws -> TestResponse)] = [
                ("v2", "reverse_chronological", { try v2HomePage(client) }),
                ("v1.1", "home_timeline", { try v11HomePage(client) }),
            ]
            for page in pages {
                emulator.inject(fault, pathContains: page.path)
                let faulted = try page.get()
                let refusing = Self.billingSide(of: fault, emulator)
                refusing(true)
                let real = try page.get()
                refusing(false)
                #expect(faulted.status == real.status, "\(page.name)")
                #expect(faulted.text == real.text, "\(page.name): \(faulted.text)")
                #expect(faulted.header("content-type") == real.header("content-type"), "\(page.name)")
                for name in ["x-rate-limit-limit", "x-rate-limit-remaining"] {
                    #expect(faulted.intHeader(name) != nil && faulted.intHeader(name) == real.intHeader(name), "\(page.name) \(name)")
                }
                #expect(try page.get().status == 200, "\(page.name): used up after one")
            }
            #expect(emulator.requests.filter { $0.fault == fault.controlName }.count == 2)
            #expect(emulator.bill().endpoint(.home).requests == 2, "only the two pages served were charged")
        }
        switch fault {
        case .creditsDepleted: #expect(fault.controlName == "credits-depleted")
        case .spendCapReached: #expect(fault.controlName == "spend-cap-reached")
        case .usageCapExceeded: #expect(fault.controlName == "usage-cap-exceeded")
        case .notEnrolled(let reason, _): #expect(fault.controlName == "not-enrolled" && reason == .clientNotEnrolled)
        default: Issue.record("\(fault) is not a billing refusal")
        }
        #expect(Fault(controlName: fault.controlName, shape: fault.refusalShape?.rawValue) == fault, "the control route names it")
    }

    /// Sets (true) or clears (false) the account state whose refusal `fault` stands for.
    static func billingSide(of fault: Fault, _ emulator: Emulator) -> (Bool) -> Void {
        switch fault {
        case .creditsDepleted: { emulator.setCredits(usd: $0 ? 0 : nil) }
        case .spendCapReached: { emulator.setSpendCap(usd: $0 ? 0 : nil) }
        case .usageCapExceeded: { emulator.setUsageCap(postReads: $0 ? 0 : nil) }
        case .notEnrolled(let reason, _): { emulator.setNotEnrolled($0 ? reason : nil, for: .home) }
        default: { _ in Issue.record("\(fault) is not a billing refusal") }
        }
    }

    @Test func notEnrolledFaultsTakeTheirReasonOverHTTP() throws {
        try withEmulator { emulator, client in
            let unsigned = TestClient(emulator: emulator, signer: nil)
            let set = try unsigned.send("POST", "/_emulator/faults",
                                        json: #"{"fault":"not-enrolled","value":"user-not-enrolled","path":"/mentions"}"#)
            #expect(set.status == 200 && set.object["fault"] as? String == "not-enrolled")
            let refused = try client.get(mentionsPath)
            #expect(refused.status == 403 && refused.object["reason"] as? String == "user-not-enrolled")
            #expect(try client.get(mentionsPath).status == 200)
            #expect(try unsigned.send("POST", "/_emulator/faults", json: #"{"fault":"not-enrolled","value":"nobody"}"#).status == 400)
            #expect(try unsigned.send("POST", "/_emulator/faults", json: #"{"fault":"spend-cap-reached","path":"/2/tweets"}"#).status == 200)
            let capped = try client.send("POST", "/2/tweets", json: #"{"text":"capped"}"#)
            #expect(capped.status == 403 && capped.object["title"] as? String == "SpendCapReached")
            #expect(emulator.postedStatuses.isEmpty, "a refusal in place of the server posts nothing")
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
