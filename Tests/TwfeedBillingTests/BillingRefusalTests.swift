import Foundation
import Testing
import TwfeedBilling

/// The bodies of shared/reference/x-api.md's refusal table, byte for byte where it gives
/// them, and what else the API and hostile servers send.
enum Bodies {
    static let creditsDepleted = #"{"title":"CreditsDepleted","detail":"Your enrolled account [ID] does not have any credits to fulfill this request.","type":"https://api.twitter.com/2/problems/credits"}"#
    static let spendCap = #"{"title":"SpendCapReached","detail":"... has reached its billing cycle spend cap. API requests will be blocked until the next cycle begins on 2026-04-14.","reset_date":"2026-04-14","type":"https://api.twitter.com/2/problems/credits"}"#
    static let usageCap = #"{"title":"UsageCapExceeded","period":"Monthly","scope":"Product","detail":"Usage cap exceeded: Monthly product cap","type":"https://api.twitter.com/2/problems/usage-capped"}"#
    static let clientNotEnrolled = #"{"title":"Client Forbidden","reason":"client-not-enrolled","required_enrollment":"...","registration_url":"...","type":"https://api.twitter.com/2/problems/client-forbidden","detail":"When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project..."}"#
    static let accessLevel = #"{"errors":[{"message":"You currently have access to a subset of X API V2 endpoints and limited v1.1 endpoints (e.g. media post, oauth) only. ...","code":453}]}"#
    static let unsupportedAuthentication = #"{"title":"Unsupported Authentication","detail":"Authenticating with OAuth 1.0a User Context is forbidden for this endpoint.  Supported authentication types are [OAuth 2.0 Application-Only].","type":"https://api.twitter.com/2/problems/unsupported-authentication","status":403}"#
}

@Suite("BillingRefusal")
struct BillingRefusalTests {
    @Test("402 CreditsDepleted: out of credits")
    func creditsDepleted() {
        let refusal = BillingRefusal.classify(status: 402, body: bytes(Bodies.creditsDepleted))
        #expect(refusal == .creditsDepleted(
            detail: "Your enrolled account [ID] does not have any credits to fulfill this request."))
        #expect(refusal?.reason == "CreditsDepleted")
        #expect(refusal.flatMap(BillingState.init(entering:)) == .outOfCredits)
    }

    @Test("403 SpendCapReached: blocked until reset_date, 00:00 UTC")
    func spendCap() {
        let refusal = BillingRefusal.classify(status: 403, body: bytes(Bodies.spendCap))
        guard case .spendCapReached(let reset, let detail) = refusal else {
            Issue.record("not a spend cap: \(String(describing: refusal))")
            return
        }
        #expect(reset == utc("2026-04-14T00:00:00Z"))
        #expect(detail.hasSuffix("until the next cycle begins on 2026-04-14."))
        #expect(refusal.flatMap(BillingState.init(entering:)) == .spendCap)
    }

    @Test("the spend cap's other type, and its date taken from the detail when reset_date is missing or bad",
          arguments: [
              #"{"title":"SpendCapReached","detail":"Blocked until the next cycle begins on 2026-05-01.","type":"https://api.twitter.com/2/problems/spend-cap-reached"}"#,
              #"{"detail":"Blocked until the next cycle begins on 2026-05-01.","type":"https://api.x.com/2/problems/spend-cap-reached"}"#,
              #"{"title":"SpendCapReached","reset_date":"soon","detail":"Account 20260501123 blocked until the next cycle begins on 2026-05-01.","type":"https://api.twitter.com/2/problems/credits"}"#,
              #"{"title":"SpendCapReached","reset_date":"2026-05-01T00:00:00Z","detail":"x","type":"https://api.twitter.com/2/problems/credits"}"#,
              #"{"reset_date":"2026-05-01","detail":"x","type":"https://api.twitter.com/2/problems/credits"}"#,
          ])
    func spendCapVariants(body: String) {
        guard case .spendCapReached(let reset, _) = BillingRefusal.classify(status: 403, body: bytes(body)) else {
            Issue.record("not a spend cap: \(body)")
            return
        }
        #expect(reset == utc("2026-05-01T00:00:00Z"))
    }

    @Test("a spend cap without any date is still a spend cap, with no reset", arguments: [
        #"{"title":"SpendCapReached","detail":"Blocked until 2026-02-30.","type":"https://api.twitter.com/2/problems/credits"}"#,
        #"{"title":"SpendCapReached","reset_date":20260501,"type":"https://api.twitter.com/2/problems/credits"}"#,
    ])
    func spendCapWithoutDate(body: String) {
        guard case .spendCapReached(let reset, _) = BillingRefusal.classify(status: 403, body: bytes(body)) else {
            Issue.record("not a spend cap: \(body)")
            return
        }
        #expect(reset == nil)
    }

    @Test("429 UsageCapExceeded: the monthly read cap, not a rate limit")
    func usageCap() {
        let refusal = BillingRefusal.classify(status: 429, body: bytes(Bodies.usageCap))
        #expect(refusal == .usageCapExceeded(period: "Monthly", detail: "Usage cap exceeded: Monthly product cap"))
        #expect(refusal.flatMap(BillingState.init(entering:)) == .usageCap)
        let byType = #"{"title":"Too Many Requests","type":"https://api.twitter.com/2/problems/usage-capped"}"#
        #expect(BillingRefusal.classify(status: 429, body: bytes(byType))
            == .usageCapExceeded(period: nil, detail: "Too Many Requests"))
    }

    @Test("endpoints refused to the app or user: not permitted, with the reason")
    func notPermitted() {
        let client = BillingRefusal.classify(status: 403, body: bytes(Bodies.clientNotEnrolled))
        guard case .notPermitted(.clientNotEnrolled, let detail) = client else {
            Issue.record("not client-not-enrolled: \(String(describing: client))")
            return
        }
        #expect(detail.hasPrefix("When authenticating requests to the Twitter API v2 endpoints"))
        #expect(client?.reason == "client-not-enrolled")
        #expect(client.flatMap(BillingState.init(entering:)) == nil)

        let user = Bodies.clientNotEnrolled.replacingOccurrences(of: "client-not-enrolled", with: "user-not-enrolled")
        #expect(BillingRefusal.classify(status: 403, body: bytes(user))?.reason == "user-not-enrolled")

        let auth = BillingRefusal.classify(status: 403, body: bytes(Bodies.unsupportedAuthentication))
        #expect(auth?.reason == "unsupported-authentication")
        // Runs of spaces collapse to one, as in the rest of a one-line detail.
        #expect(auth?.detail == "Authenticating with OAuth 1.0a User Context is forbidden for this endpoint. Supported authentication types are [OAuth 2.0 Application-Only].")

        let v11 = BillingRefusal.classify(status: 403, body: bytes(Bodies.accessLevel))
        #expect(v11?.reason == "access-level")
        #expect(v11?.detail.hasPrefix("You currently have access to a subset of X API V2 endpoints") == true)
        let codeAsString = #"{"errors":[{"code":"453","message":"subset"}]}"#
        #expect(BillingRefusal.classify(status: 403, body: bytes(codeAsString)) == .notPermitted(.accessLevel, detail: "subset"))
        let titleOnly = #"{"title":"Unsupported Authentication","status":403}"#
        #expect(BillingRefusal.classify(status: 403, body: bytes(titleOnly))
            == .notPermitted(.unsupportedAuthentication, detail: "Unsupported Authentication"))
        let unknownReason = #"{"title":"Client Forbidden","reason":"something-new","type":"https://api.twitter.com/2/problems/client-forbidden"}"#
        #expect(BillingRefusal.classify(status: 403, body: bytes(unknownReason))?.reason == "client-not-enrolled")
    }

    @Test("each reason tells a person what to do")
    func advice() {
        #expect(NotPermittedReason.allCases.map(\.rawValue)
            == ["client-not-enrolled", "user-not-enrolled", "unsupported-authentication", "access-level"])
        #expect(NotPermittedReason.clientNotEnrolled.advice.contains("Project"))
        #expect(NotPermittedReason.userNotEnrolled.advice.contains("pay-per-use"))
        #expect(NotPermittedReason.accessLevel.advice.contains("v2"))
        for reason in NotPermittedReason.allCases {
            #expect(!reason.advice.contains("\n"))
            #expect(reason.advice.count < 200)
        }
    }

    @Test("ordinary errors are not billing refusals", arguments: [
        (429, #"{"title":"Too Many Requests","detail":"Too Many Requests","type":"about:blank","status":429}"#),
        (429, #"{"errors":[{"code":88,"message":"Rate limit exceeded"}]}"#),
        (401, #"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#),
        (401, #"{"errors":[{"code":89,"message":"Invalid or expired token."}]}"#),
        (403, #"{"detail":"You are not allowed to create a Tweet with duplicate content.","type":"about:blank","title":"Forbidden","status":403}"#),
        (403, #"{"errors":[{"code":187,"message":"Status is a duplicate."}]}"#),
        (403, #"{"errors":[{"code":185,"message":"User is over daily status update limit."}]}"#),
        (400, #"{"errors":[{"parameters":{"max_results":["1000"]},"message":"The `max_results` query parameter value [1000] is not between 5 and 100"}],"title":"Invalid Request","detail":"One or more parameters to your request was invalid.","type":"https://api.twitter.com/2/problems/invalid-request"}"#),
        (503, #"{"errors":[{"code":130,"message":"Over capacity"}]}"#),
        // The right words with a status that is no refusal: an outage or a success.
        (503, Bodies.creditsDepleted),
        (200, Bodies.usageCap),
        (500, Bodies.accessLevel),
    ])
    func ordinaryErrors(status: Int, body: String) {
        #expect(BillingRefusal.classify(status: status, body: bytes(body)) == nil)
    }

    @Test("the status alone means nothing but for 402: 403 or 429 with no recognisable body is nil", arguments: [
        (429, "[]"), (403, "null"), (429, "Too Many Requests"), (403, ""), (403, "<html><body>403</body></html>"),
        (403, #"{"title":42,"type":["https://api.twitter.com/2/problems/credits"],"reason":{}}"#),
        (403, #"{"errors":"453"}"#), (403, #"{"errors":[453]}"#), (403, #"{"errors":[{"code":453.5}]}"#),
        (403, #"{"title":"SpendCapReached""#),  // cut short
    ])
    func garbage(status: Int, body: String) {
        #expect(BillingRefusal.classify(status: status, body: bytes(body)) == nil)
    }

    @Test("any 402 is out of credits, whatever its body", arguments: [
        // v1.1's errors list, as a server answered an empty balance in that dialect.
        (#"{"errors":[{"code":402,"message":"Your enrolled account [7] does not have any credits to fulfill this request."}]}"#,
         "Your enrolled account [7] does not have any credits to fulfill this request."),
        (#"{"errors":[{"message":"Payment Required"}]}"#, "Payment Required"),
        // A v2 problem under another title or type, or with none.
        (#"{"title":"SpendCapReached","detail":"capped","type":"https://api.twitter.com/2/problems/spend-cap-reached"}"#, "capped"),
        (#"{"title":"Payment Required","type":"about:blank"}"#, "Payment Required"),
        ("", BillingRefusal.paymentRequired),
        ("Payment Required", BillingRefusal.paymentRequired),
        ("<html><head><title>402 Payment Required</title></head><body><h1>402</h1></body></html>", BillingRefusal.paymentRequired),
        ("{}", BillingRefusal.paymentRequired), ("[]", BillingRefusal.paymentRequired), ("null", BillingRefusal.paymentRequired),
        (#""CreditsDepleted""#, BillingRefusal.paymentRequired),
        (#"{"title":"CreditsDepleted""#, BillingRefusal.paymentRequired),  // cut short
        (#"{"detail":"  \n  "}"#, BillingRefusal.paymentRequired),
    ])
    func anyPaymentRequired(body: String, detail: String) {
        let refusal = BillingRefusal.classify(status: 402, body: bytes(body))
        #expect(refusal == .creditsDepleted(detail: detail))
        #expect(refusal.flatMap(BillingState.init(entering:)) == .outOfCredits)
    }

    @Test("the caps in v1.1's errors list, recognised by their words", arguments: [
        (403, #"{"errors":[{"code":403,"message":"Your enrolled account [7] has reached its billing cycle spend cap. API requests will be blocked until the next cycle begins on 2026-04-14."}]}"#),
        (429, #"{"errors":[{"code":429,"message":"Usage cap exceeded: Monthly product cap"}]}"#),
    ])
    func v11Caps(status: Int, body: String) {
        let refusal = BillingRefusal.classify(status: status, body: bytes(body))
        if status == 403 {
            #expect(refusal == .spendCapReached(resetDate: utc("2026-04-14T00:00:00Z"), detail: "Your enrolled account [7] has reached its billing cycle spend cap. API requests will be blocked until the next cycle begins on 2026-04-14."))
        } else {
            #expect(refusal == .usageCapExceeded(period: nil, detail: "Usage cap exceeded: Monthly product cap"))
        }
    }

    @Test("hostile bodies: invalid UTF-8, deep nesting, huge; no crash, and a 402 stays no credits")
    func hostileBodies() {
        let hostile: [[UInt8]] = [
            [0xFF, 0xFE, 0x7B, 0x00, 0xC3],
            bytes(String(repeating: "[", count: 60_000)),
            bytes(String(repeating: #"{"a":"#, count: 5_000) + "1" + String(repeating: "}", count: 5_000)),
            bytes(#"{"title":"UsageCapExceeded","pad":""# + String(repeating: "x", count: 70_000) + #""}"#),
        ]
        for body in hostile {
            #expect(BillingRefusal.classify(status: 403, body: body) == nil)
            #expect(BillingRefusal.classify(status: 429, body: body) == nil)
            #expect(BillingRefusal.classify(status: 402, body: body) == .creditsDepleted(detail: BillingRefusal.paymentRequired))
        }
        // Noise around a real refusal does not hide it.
        let noisy = #"{"title":"UsageCapExceeded","detail":null,"type":7,"extra":[1,{"b":[]}]}"#
        #expect(BillingRefusal.classify(status: 429, body: bytes(noisy)) == .usageCapExceeded(period: nil, detail: "UsageCapExceeded"))
    }

    @Test("details are one line of at most 300 characters")
    func detailIsOneLine() {
        let hostile = "line one\nline two\r\n\tthree\u{0}\u{1B}[31mred\u{2028}four\u{202E}evil\u{7F}  five"
        let body = try! JSONSerialization.data(withJSONObject: ["title": "CreditsDepleted", "detail": hostile])
        let detail = BillingRefusal.classify(status: 402, body: Array(body))?.detail
        #expect(detail == "line one line two three [31mred four evil five")

        let long = String(repeating: "é", count: 1_000)
        let longBody = try! JSONSerialization.data(withJSONObject: ["title": "UsageCapExceeded", "detail": long, "period": String(repeating: "M", count: 500)])
        guard case .usageCapExceeded(let period, let longDetail) = BillingRefusal.classify(status: 429, body: Array(longBody)) else {
            Issue.record("not a usage cap")
            return
        }
        #expect(longDetail.count == BillingRefusal.detailLimit)
        #expect(longDetail.hasSuffix("…"))
        #expect((period?.count ?? 0) <= 40)

        let exactly300 = String(repeating: "a", count: 300)
        #expect(BillingRefusal.oneLine(exactly300, limit: 300) == exactly300)
        #expect(BillingRefusal.oneLine("\n\n  \t", limit: 300) == "")
        // Emoji sequences are cut whole, not into stray scalars.
        let flags = String(repeating: "🇫🇷", count: 400)
        #expect(BillingRefusal.oneLine(flags, limit: 300) == String(repeating: "🇫🇷", count: 299) + "…")
    }
}
