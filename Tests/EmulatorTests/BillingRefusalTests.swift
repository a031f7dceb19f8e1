import Foundation
import Testing
import TwfeedEmulator

/// How the pay-per-use API refuses: no credits, the spend cap, the monthly usage cap, an
/// endpoint outside the account's access. Each is classified by its body, not its status.
@Suite struct BillingRefusalTests {
    static let creditsDepleted = #"{"title":"CreditsDepleted","detail":"Your enrolled account [\#(Emulator.accountUserID)] "#
        + #"does not have any credits to fulfill this request.","type":"https://api.twitter.com/2/problems/credits"}"#
    /// v1.1's own words for it: its errors list, with the status as the code.
    static let v11CreditsDepleted = #"{"errors":[{"code":402,"message":"Your enrolled account [\#(Emulator.accountUserID)] "#
        + #"does not have any credits to fulfill this request."}]}"#

    @Test func noCreditsLeftIsA402InBothDialectsUntilCreditsAreAdded() throws {
        try withBillingEmulator({ $0.billing.creditsUSD = 0.02 }) { emulator, client in
            // The request that runs the balance out is served, and may take it below zero.
            let page = try v2HomePage(client)
            #expect(page.status == 200)
            let charged = emulator.bill().totalMicros
            #expect(charged > 20_000)
            #expect(emulator.credits == Double(20_000 - charged) / 1_000_000)

            for (refused, body) in [(try v2HomePage(client), Self.creditsDepleted), (try client.get("/2/users/me"), Self.creditsDepleted),
                                    (try client.send("POST", "/2/tweets", json: #"{"text":"no money"}"#), Self.creditsDepleted),
                                    (try v11HomePage(client), Self.v11CreditsDepleted),
                                    (try client.get("/1.1/account/verify_credentials.json"), Self.v11CreditsDepleted)] {
                #expect(refused.status == 402)
                #expect(refused.text == body)
                #expect(refused.intHeader("x-rate-limit-remaining") != nil)
            }
            #expect(emulator.bill().totalMicros == charged, "refusals cost nothing")
            #expect(emulator.postedStatuses.isEmpty)
            // Neither the sign-in flow nor the control routes are API requests.
            let signIn = TestClient(emulator: emulator, signer: {
                var signer = TestSigner()
                signer.token = nil
                signer.tokenSecret = ""
                signer.extra = [("oauth_callback", "oob")]
                return signer
            }())
            #expect(try signIn.send("POST", "/oauth/request_token").status == 200)

            emulator.setCredits(usd: 1)
            #expect(try v2HomePage(client).status == 200, "service resumes at once")
            let unsigned = TestClient(emulator: emulator, signer: nil)
            #expect(try unsigned.send("POST", "/_emulator/billing", json: #"{"creditsUSD":0}"#).status == 200)
            #expect(try v11HomePage(client).status == 402)
            #expect(try unsigned.send("POST", "/_emulator/billing", json: #"{"creditsUSD":null}"#).status == 200)
            #expect(try v11HomePage(client).status == 200)
            #expect(emulator.credits == nil)
        }
    }

    @Test func theSpendCapBlocksUntilTheNextCycle() throws {
        try withBillingEmulator({ $0.billing.spendCapUSD = 0.05 }) { emulator, client in
            #expect(try v2HomePage(client).status == 200)
            #expect(emulator.bill().cycleMicros >= 50_000)
            #expect(emulator.bill().cycleStart == "2026-11-01" && emulator.bill().nextCycleStart == "2026-12-01")

            let v2 = try client.get("/2/users/me")
            #expect(v2.status == 403)
            #expect(v2.object["title"] as? String == "SpendCapReached")
            #expect(v2.object["reset_date"] as? String == "2026-12-01")
            #expect(v2.object["type"] as? String == "https://api.twitter.com/2/problems/credits")
            #expect((v2.object["detail"] as? String)?.hasSuffix("has reached its billing cycle spend cap. API requests "
                    + "will be blocked until the next cycle begins on 2026-12-01.") == true)
            let v11 = try client.send("POST", "/1.1/statuses/update.json", form: [("status", "capped")])
            #expect(v11.status == 403)
            let error = (v11.object["errors"] as? [[String: Any]])?.first
            #expect(error?["code"] as? Int == 403)
            #expect((error?["message"] as? String)?.hasSuffix("the next cycle begins on 2026-12-01.") == true)

            // The last second of the cycle, then the first of the next.
            moveClock(emulator, to: "2026-11-30T23:59:50Z")
            #expect(try client.get("/2/users/me").status == 403)
            moveClock(emulator, to: "2026-12-01T00:00:05Z")
            #expect(try client.get("/2/users/me").status == 200)
            let bill = emulator.bill()
            #expect(bill.cycleStart == "2026-12-01" && bill.cycleMicros == Rate.userRead)
            #expect(bill.totalMicros > bill.cycleMicros, "the total keeps the earlier cycle")
        }
    }

    @Test func theCycleStartsOnItsDayOfTheMonth() throws {
        try withBillingEmulator({ $0.billing.spendCapUSD = 0.01; $0.billing.cycleStartDay = 26 }) { emulator, client in
            #expect(try client.get("/2/users/me").status == 200)
            let capped = try client.get("/2/users/me")
            #expect(capped.status == 403 && capped.object["reset_date"] as? String == "2026-11-26")
            #expect(emulator.bill().cycleStart == "2026-10-26")
            moveClock(emulator, to: "2026-11-26T00:00:01Z")
            #expect(try client.get("/2/users/me").status == 200, "a new day: the user read is charged again")
            #expect(try client.get("/2/users/me").status == 403, "and reaches the cap of the new cycle")

            emulator.setCycleStartDay(1)
            #expect(emulator.bill().cycleStart == "2026-11-01" && emulator.bill().cycleMicros == 0)
            #expect(try client.get("/2/users/me").status == 200)
            emulator.setSpendCap(usd: nil)
            #expect(try client.get("/2/users/me").status == 200)
        }
    }

    @Test func theUsageCapRefusesReadsWithHealthyRateLimitHeadersWhilePostsGoThrough() throws {
        try withBillingEmulator({ $0.billing.usageCapPostReads = 10 }) { emulator, client in
            #expect(try v2HomePage(client).status == 200, "the read that crosses the cap is served")
            #expect(emulator.bill().cycle.postReads >= 20)

            let v11 = try v11HomePage(client)
            #expect(v11.status == 429)
            #expect(v11.text == #"{"errors":[{"code":429,"message":"Usage cap exceeded: Monthly product cap"}]}"#)
            for capped in [try v2HomePage(client), try client.get(mentionsPath, clientFields),
                           try client.get("/2/tweets", [("ids", emulator.groundTruth(.home, dialect: .v2)[0])])] {
                #expect(capped.status == 429)
                #expect(capped.object["title"] as? String == "UsageCapExceeded")
                #expect(capped.object["period"] as? String == "Monthly" && capped.object["scope"] as? String == "Product")
                #expect(capped.object["type"] as? String == "https://api.twitter.com/2/problems/usage-capped")
                let limit = try #require(capped.intHeader("x-rate-limit-limit"))
                let remaining = try #require(capped.intHeader("x-rate-limit-remaining"))
                #expect(remaining > 0 && remaining >= limit - 1, "not an exhausted window")
            }
            #expect(try client.get("/2/users/me").status == 200, "a user read is not a post read")
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"posts still go"}"#).status == 201)
            #expect(try client.send("POST", "/1.1/statuses/update.json", form: [("status", "and v1.1")]).status == 200)

            emulator.setUsageCap(postReads: nil)
            #expect(try v2HomePage(client).status == 200)
        }
    }

    @Test(arguments: EmulatorRefusal.allCases)
    func anEndpointOutsideTheAccountsAccessIsRefusedUntilCleared(_ refusal: EmulatorRefusal) throws {
        try withBillingEmulator { emulator, client in
            emulator.setNotEnrolled(refusal, for: .home)
            let v2 = try v2HomePage(client)
            #expect(v2.status == 403)
            switch refusal {
            case .clientNotEnrolled, .userNotEnrolled:
                #expect(v2.object["title"] as? String == "Client Forbidden")
                #expect(v2.object["reason"] as? String == refusal.rawValue)
                #expect(v2.object["type"] as? String == "https://api.twitter.com/2/problems/client-forbidden")
                #expect(v2.object["registration_url"] as? String == "https://developer.x.com/en/portal/product")
                #expect(v2.object["required_enrollment"] as? String == "Appropriate Level of API Access")
                #expect((v2.object["detail"] as? String)?.hasPrefix("When authenticating requests to the Twitter API v2") == true)
            case .unsupportedAuthentication:
                #expect(v2.object["title"] as? String == "Unsupported Authentication")
                #expect(v2.object["type"] as? String == "https://api.twitter.com/2/problems/unsupported-authentication")
            }
            let v11 = try v11HomePage(client)
            #expect(v11.status == 403)
            #expect(v11.text == #"{"errors":[{"code":453,"message":"You currently have access to a subset of X API V2 "#
                + #"endpoints and limited v1.1 endpoints (e.g. media post, oauth) only. If you need access to this "#
                + #"endpoint, you may need a different access level. You can learn more here: "#
                + #"https://developer.x.com/en/portal/product"}]}"#)
            #expect(try client.get(mentionsPath, clientFields).status == 200, "other endpoints answer")
            #expect(emulator.bill().endpoint(.home).requests == 0)

            emulator.setNotEnrolled(nil, for: .home)
            #expect(try v2HomePage(client).status == 200)
            #expect(try v11HomePage(client).status == 200)
        }
    }

    /// Every refusal in every shape, in both dialects: the refusal's own status whatever
    /// the body, so a client meets what another server might send.
    @Test(arguments: EmulatorRefusalShape.allCases)
    func everyRefusalTakesEveryShape(_ shape: EmulatorRefusalShape) throws {
        try withBillingEmulator { emulator, client in
            let unsigned = TestClient(emulator: emulator, signer: nil)
            #expect(try unsigned.send("POST", "/_emulator/billing", json: #"{"refusalShape":"\#(shape.rawValue)"}"#).status == 200)
            let states: [(status: Int, set: (Bool) -> Void)] = [
                (402, { emulator.setCredits(usd: $0 ? 0 : nil) }),
                (403, { emulator.setSpendCap(usd: $0 ? 0 : nil) }),
                (429, { emulator.setUsageCap(postReads: $0 ? 0 : nil) }),
                (403, { emulator.setNotEnrolled($0 ? .clientNotEnrolled : nil, for: .home) }),
            ]
            for state in states {
                state.set(true)
                for (dialect, page) in [("v2", { try v2HomePage(client) }), ("v1.1", { try v11HomePage(client) })] {
                    let refused = try page()
                    #expect(refused.status == state.status, "\(shape) \(dialect)")
                    let errors = refused.object["errors"] as? [[String: Any]]
                    switch shape {
                    case .empty: #expect(refused.body.isEmpty)
                    case .html:
                        #expect(refused.header("content-type")?.hasPrefix("text/html") == true)
                        #expect(refused.text.contains("<h1>\(state.status) "))
                    case .problem: #expect(refused.object["type"] is String && errors == nil, "\(dialect)")
                    case .errors: #expect(errors?.first?["message"] is String && refused.object["type"] == nil, "\(dialect)")
                    case .dialect: #expect((errors != nil) == (dialect == "v1.1"), "\(dialect)")
                    }
                }
                state.set(false)
            }
            #expect(try v2HomePage(client).status == 200)
            let faulted = try unsigned.send("POST", "/_emulator/faults", json: #"{"fault":"credits-depleted","shape":"empty"}"#)
            #expect(faulted.status == 200)
            let empty = try v2HomePage(client)
            #expect(empty.status == 402 && empty.body.isEmpty)
            #expect(try unsigned.send("POST", "/_emulator/faults", json: #"{"fault":"credits-depleted","shape":"xml"}"#).status == 400)
            #expect(try unsigned.send("POST", "/_emulator/billing", json: #"{"refusalShape":"xml"}"#).status == 400)
        }
    }

    @Test func refusalsAreSetAndClearedOverHTTPToo() throws {
        try withBillingEmulator { emulator, client in
            let unsigned = TestClient(emulator: emulator, signer: nil)
            let set = try unsigned.send("POST", "/_emulator/billing",
                                        json: #"{"notEnrolled":{"mentions":"user-not-enrolled","post":"client-not-enrolled"}}"#)
            #expect(set.status == 200)
            #expect(set.object[path: "notEnrolled", "mentions"] as? String == "user-not-enrolled")
            let mentions = try client.get(mentionsPath)
            #expect(mentions.status == 403 && mentions.object["reason"] as? String == "user-not-enrolled")
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"refused"}"#).status == 403)
            #expect(try client.send("POST", "/1.1/statuses/update.json", form: [("status", "refused")]).text.contains("453"))
            #expect(try v2HomePage(client).status == 200)

            #expect(try unsigned.send("POST", "/_emulator/billing", json: #"{"notEnrolled":{"mentions":null}}"#).status == 200)
            #expect(try client.get(mentionsPath).status == 200)
            #expect(try client.send("POST", "/2/tweets", json: #"{"text":"still refused"}"#).status == 403)
            #expect(emulator.postedStatuses.isEmpty)
        }
    }
}
