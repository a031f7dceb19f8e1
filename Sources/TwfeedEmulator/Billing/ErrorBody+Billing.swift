/// The refusals of the pay-per-use API, with the bodies x-api.md records. Clients must
/// classify them by `title`/`type`, not by status: a 403 may be a spend cap or an access
/// level, and a 429 may be the monthly cap with healthy rate-limit headers.
extension ErrorBody {
    static let creditsProblemType = "https://api.twitter.com/2/problems/credits"

    /// What a self-serve account hears when it replies to a post that did not summon it.
    static let replyNotPermittedDetail =
        "Reply to this conversation is not allowed because you have not been "
        + "mentioned or otherwise engaged by the author of the post you are replying to."

    /// The answer for `refusal` in `dialect`. The three money refusals have no documented
    /// v1.1 shape (the legacy API predates pay-per-use), so v1.1 gets the same problem
    /// JSON as v2; an endpoint outside the account's access is v1.1's code 453.
    static func billingRefusal(_ refusal: BillingRefusal, _ dialect: EmulatorDialect) -> EmulatorResponse {
        let account = BillingLedger.enrolledAccountID
        switch refusal {
        case .creditsDepleted:
            return problemMembers(
                402,
                [
                    ("title", .string("CreditsDepleted")),
                    ("detail", .string("Your enrolled account [\(account)] does not have any credits to fulfill this request.")),
                    ("type", .string(creditsProblemType)),
                ]
            )
        case .spendCapReached(let resetDate):
            return problemMembers(
                403,
                [
                    ("title", .string("SpendCapReached")),
                    (
                        "detail",
                        .string(
                            "Your enrolled account [\(account)] has reached its billing cycle spend cap. "
                                + "API requests will be blocked until the next cycle begins on \(resetDate)."
                        )
                    ),
                    ("reset_date", .string(resetDate)),
                    ("type", .string(creditsProblemType)),
                ]
            )
        case .usageCapExceeded:
            return problemMembers(
                429,
                [
                    ("title", .string("UsageCapExceeded")),
                    ("period", .string("Monthly")),
                    ("scope", .string("Product")),
                    ("detail", .string("Usage cap exceeded: Monthly product cap")),
                    ("type", .string("https://api.twitter.com/2/problems/usage-capped")),
                ]
            )
        case .notEnrolled(let reason):
            if dialect == .v1_1 {
                return v11(
                    403,
                    code: 453,
                    message: "You currently have access to a subset of X API V2 endpoints and "
                        + "limited v1.1 endpoints (e.g. media post, oauth) only. If you need access to this endpoint, you "
                        + "may need a different access level. You can learn more here: https://developer.x.com/en/portal/product"
                )
            }
            switch reason {
            case .clientNotEnrolled, .userNotEnrolled:
                return problemMembers(
                    403,
                    [
                        ("title", .string("Client Forbidden")),
                        ("reason", .string(reason.rawValue)),
                        ("required_enrollment", .string("Appropriate Level of API Access")),
                        ("registration_url", .string("https://developer.x.com/en/portal/product")),
                        ("type", .string("https://api.twitter.com/2/problems/client-forbidden")),
                        (
                            "detail",
                            .string(
                                "When authenticating requests to the Twitter API v2 endpoints, you must use keys "
                                    + "and tokens from a Twitter developer App that is attached to a Project. You can create a "
                                    + "project via the developer portal."
                            )
                        ),
                    ]
                )
            case .unsupportedAuthentication:
                return problemMembers(
                    403,
                    [
                        ("title", .string("Unsupported Authentication")),
                        (
                            "detail",
                            .string(
                                "Authenticating with OAuth 1.0a User Context is forbidden for this endpoint.  "
                                    + "Supported authentication types are [OAuth 2.0 Application-Only]."
                            )
                        ),
                        ("type", .string("https://api.twitter.com/2/problems/unsupported-authentication")),
                        ("status", .int(403)),
                    ]
                )
            }
        }
    }

    /// A problem object with exactly these members, in this order.
    private static func problemMembers(_ status: Int, _ members: [(String, EmulatorJSON)]) -> EmulatorResponse {
        .json(status, .object(members), contentType: problemContentType)
    }
}
