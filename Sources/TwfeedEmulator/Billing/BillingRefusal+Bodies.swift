/// What each refusal says, in the words x-api.md records: the parts every shape of its
/// body (`EmulatorRefusalShape`) is made of.
extension BillingRefusal {
    /// The refusal's HTTP status, the same in every shape.
    var status: Int {
        switch self {
        case .creditsDepleted: 402
        case .spendCapReached, .notEnrolled: 403
        case .usageCapExceeded: 429
        }
    }

    var statusText: String {
        switch self {
        case .creditsDepleted: "Payment Required"
        case .spendCapReached, .notEnrolled: "Forbidden"
        case .usageCapExceeded: "Too Many Requests"
        }
    }

    /// The code of v1.1's errors list: 453 for an endpoint outside the account's access
    /// (documented), else the HTTP status (as the 402 was seen).
    var v11Code: Int {
        if case .notEnrolled = self { return 453 }
        return status
    }

    /// The message of v1.1's errors list: the problem's detail, or v1.1's own words for
    /// an endpoint outside the account's access.
    var v11Message: String {
        if case .notEnrolled = self {
            return "You currently have access to a subset of X API V2 endpoints and "
                + "limited v1.1 endpoints (e.g. media post, oauth) only. If you need access to this endpoint, you "
                + "may need a different access level. You can learn more here: https://developer.x.com/en/portal/product"
        }
        return detail
    }

    private var detail: String {
        let account = BillingLedger.enrolledAccountID
        switch self {
        case .creditsDepleted:
            return "Your enrolled account [\(account)] does not have any credits to fulfill this request."
        case .spendCapReached(let resetDate):
            return "Your enrolled account [\(account)] has reached its billing cycle spend cap. "
                + "API requests will be blocked until the next cycle begins on \(resetDate)."
        case .usageCapExceeded:
            return "Usage cap exceeded: Monthly product cap"
        case .notEnrolled(.clientNotEnrolled), .notEnrolled(.userNotEnrolled):
            return "When authenticating requests to the Twitter API v2 endpoints, you must use keys "
                + "and tokens from a Twitter developer App that is attached to a Project. You can create a "
                + "project via the developer portal."
        case .notEnrolled(.unsupportedAuthentication):
            return "Authenticating with OAuth 1.0a User Context is forbidden for this endpoint.  "
                + "Supported authentication types are [OAuth 2.0 Application-Only]."
        }
    }

    /// The v2 problem object's members, in x-api.md's order.
    var problemMembers: [(String, EmulatorJSON)] {
        switch self {
        case .creditsDepleted:
            return [
                ("title", .string("CreditsDepleted")), ("detail", .string(detail)),
                ("type", .string(ErrorBody.creditsProblemType)),
            ]
        case .spendCapReached(let resetDate):
            return [
                ("title", .string("SpendCapReached")), ("detail", .string(detail)), ("reset_date", .string(resetDate)),
                ("type", .string(ErrorBody.creditsProblemType)),
            ]
        case .usageCapExceeded:
            return [
                ("title", .string("UsageCapExceeded")), ("period", .string("Monthly")), ("scope", .string("Product")),
                ("detail", .string(detail)), ("type", .string("https://api.twitter.com/2/problems/usage-capped")),
            ]
        case .notEnrolled(let reason) where reason == .unsupportedAuthentication:
            return [
                ("title", .string("Unsupported Authentication")), ("detail", .string(detail)),
                ("type", .string("https://api.twitter.com/2/problems/unsupported-authentication")), ("status", .int(403)),
            ]
        case .notEnrolled(let reason):
            return [
                ("title", .string("Client Forbidden")), ("reason", .string(reason.rawValue)),
                ("required_enrollment", .string("Appropriate Level of API Access")),
                ("registration_url", .string("https://developer.x.com/en/portal/product")),
                ("type", .string("https://api.twitter.com/2/problems/client-forbidden")), ("detail", .string(detail)),
            ]
        }
    }
}
