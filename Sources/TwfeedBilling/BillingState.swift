/// The account's standing with the API's billing, as `twfeed status` reports it.
///
/// The raw values are the contract's (`billing.state` in `status --json`, the
/// `state` label of `twfeed_api_billing_state`, the `billing.state` log event).
package enum BillingState: String, CaseIterable, Sendable, Hashable {
    /// Requests go out as the schedule wants.
    case ok
    /// twfeed's own monthly budget holds requests back until tomorrow's allowance.
    case budgetLimited = "budget_limited"
    /// The API answered 402 `CreditsDepleted`.
    case outOfCredits = "out_of_credits"
    /// The API answered 403 `SpendCapReached`.
    case spendCap = "spend_cap"
    /// The API answered 429 `UsageCapExceeded`.
    case usageCap = "usage_cap"

    /// Whether `twfeed status` may exit 0. Holding back for a budget the user chose is
    /// twfeed working as asked; the other states need a person (credits, the console's
    /// limits) or silence the feeds for weeks.
    package var isHealthy: Bool {
        switch self {
        case .ok, .budgetLimited: true
        case .outOfCredits, .spendCap, .usageCap: false
        }
    }

    /// The state a refusal puts the account in; nil for a refusal of one endpoint
    /// (`notPermitted`), which is the feed's condition, not the account's.
    package init?(entering refusal: BillingRefusal) {
        switch refusal {
        case .creditsDepleted: self = .outOfCredits
        case .spendCapReached: self = .spendCap
        case .usageCapExceeded: self = .usageCap
        case .notPermitted: return nil
        }
    }

    /// What a person does about it, on one line: the log's `hint` and `twfeed status`.
    package var advice: String {
        switch self {
        case .ok: "nothing to do"
        case .budgetLimited: "today's share of api.budget.monthlyUSD is spent; reads resume at 00:00 UTC"
        case .outOfCredits: "add credits in the X developer console; twfeed resumes by itself"
        case .spendCap: "raise the spend cap in the X developer console, or wait for its reset"
        case .usageCap: "the monthly read cap: reads resume with the next billing cycle; posts go on"
        }
    }
}
