import Foundation

/// An API refusal that is about money or entitlement, not about rate.
///
/// These answers use the statuses of ordinary errors (402, 403, 429) but mean something
/// else: a 429 `UsageCapExceeded` comes with rate-limit headers that are not exhausted,
/// and a client that waits for `x-rate-limit-reset` retries it every 15 minutes for
/// weeks; a 403 spend cap is not a duplicate post. Telling them apart takes the body,
/// which is why `classify` reads it and never decides by status alone.
package enum BillingRefusal: Hashable, Sendable {
    /// 402 `CreditsDepleted`: the prepaid credits are gone; everything is refused until
    /// someone adds credits.
    case creditsDepleted(detail: String)
    /// 403 `SpendCapReached`: the console's spending limit for this cycle is reached;
    /// `resetDate` is 00:00 UTC on the API's `reset_date`, nil when it gave none.
    case spendCapReached(resetDate: Date?, detail: String)
    /// 429 `UsageCapExceeded`: the cycle's post-read cap; reads are refused until the
    /// cycle resets. `period` is the API's word for it (`Monthly`).
    case usageCapExceeded(period: String?, detail: String)
    /// The endpoint is not available to this app or user at all.
    case notPermitted(NotPermittedReason, detail: String)

    /// The API's explanation, on one line and at most `detailLimit` characters.
    package var detail: String {
        switch self {
        case .creditsDepleted(let detail), .spendCapReached(_, let detail),
            .usageCapExceeded(_, let detail), .notPermitted(_, let detail):
            detail
        }
    }

    /// The API's name for the refusal (its `title`, or its `reason` for a refusal of the
    /// endpoint): the `reason` of the `billing.state` log event and a feed's `refusal`.
    package var reason: String {
        switch self {
        case .creditsDepleted: "CreditsDepleted"
        case .spendCapReached: "SpendCapReached"
        case .usageCapExceeded: "UsageCapExceeded"
        case .notPermitted(let why, _): why.rawValue
        }
    }

    /// The longest `detail` kept: it goes into one log line and `twfeed status`.
    package static let detailLimit = 300
}
