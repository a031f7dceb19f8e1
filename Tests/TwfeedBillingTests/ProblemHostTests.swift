import Foundation
import Testing
import TwfeedBilling

/// X's OpenAPI document of August 2026 puts problem types under `https://api.x.com/2/problems/`;
/// the recorded answers have `https://api.twitter.com/2/problems/`. A refusal is read by
/// the name after `/problems/`, whatever the host.
@Suite struct ProblemHostTests {
    /// The body with the host moved and without `title` and `reason`, so only `type` tells.
    static func typeOnly(_ body: String, host: String) throws -> [UInt8] {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        object["title"] = nil
        object["reason"] = nil
        object["type"] = (object["type"] as? String)?.replacingOccurrences(of: "https://api.twitter.com/", with: host)
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    @Test(arguments: [
        (402, Bodies.creditsDepleted), (403, Bodies.spendCap), (429, Bodies.usageCap), (403, Bodies.clientNotEnrolled),
        (403, Bodies.unsupportedAuthentication),
    ])
    func aProblemTypeUnderAPIXIsTheSameRefusal(status: Int, body: String) throws {
        let old = BillingRefusal.classify(status: status, body: try Self.typeOnly(body, host: "https://api.twitter.com/"))
        let new = BillingRefusal.classify(status: status, body: try Self.typeOnly(body, host: "https://api.x.com/"))
        #expect(old != nil, "the type alone tells")
        #expect(new == old)
    }
}
