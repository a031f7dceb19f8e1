/// The refusals of the pay-per-use API, with the bodies x-api.md records. Clients must
/// classify them by `title`/`type`, not by status: a 403 may be a spend cap or an access
/// level, and a 429 may be the monthly cap with healthy rate-limit headers.
extension ErrorBody {
    static let creditsProblemType = "https://api.twitter.com/2/problems/credits"

    /// What a self-serve account hears when it replies to a post that did not summon it.
    static let replyNotPermittedDetail =
        "Reply to this conversation is not allowed because you have not been "
        + "mentioned or otherwise engaged by the author of the post you are replying to."

    /// The answer for `refusal` in `dialect`, worded as `shape` says (x-api.md's bodies
    /// for the problem objects; v1.1 predates pay-per-use and documents none of its own
    /// but the access level's code 453).
    static func billingRefusal(
        _ refusal: BillingRefusal,
        _ dialect: EmulatorDialect,
        shape: EmulatorRefusalShape = .dialect
    ) -> EmulatorResponse {
        let status = refusal.status
        switch shape.resolved(dialect) {
        case .empty:
            return EmulatorResponse(status: status, headers: [], body: [])
        case .html:
            let title = "\(status) \(refusal.statusText)"
            return .text(
                status,
                "<html><head><title>\(title)</title></head><body><center><h1>\(title)</h1></center></body></html>\n",
                contentType: "text/html; charset=utf-8"
            )
        case .errors:
            return v11(status, code: refusal.v11Code, message: refusal.v11Message)
        case .problem, .dialect:
            return problemMembers(status, refusal.problemMembers)
        }
    }

    /// A problem object with exactly these members, in this order.
    private static func problemMembers(_ status: Int, _ members: [(String, EmulatorJSON)]) -> EmulatorResponse {
        .json(status, .object(members), contentType: problemContentType)
    }
}
