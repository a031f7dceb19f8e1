import Foundation

/// The billing state together with what deciding about it needs: when it began, when it
/// is expected to end, what the API said, and when it was last probed.
///
/// Kept as one value so the daemon can store it (it must survive a restart: a daemon that
/// forgot a usage cap would spend its first minutes being refused again) and so every
/// decision is a function of it and the time.
package struct BillingStatus: Hashable, Sendable {
    package var state: BillingState
    /// When the account entered `state`.
    package var since: Date
    /// When the state should end on its own: the spend cap's reset date, the usage cap's
    /// cycle end, the end of the UTC day for `budget_limited`; nil when unknown (credits
    /// come back when someone adds them) and for `ok`.
    package var until: Date?
    /// The API's explanation (already one line), nil for `ok` and `budget_limited`.
    package var detail: String?
    /// When the last probe request was allowed in this state; nil before the first.
    package var lastProbe: Date?

    package init(state: BillingState, since: Date, until: Date? = nil, detail: String? = nil, lastProbe: Date? = nil) {
        self.state = state
        self.since = since
        self.until = until
        self.detail = detail
        self.lastProbe = lastProbe
    }

    /// All clear, as of `date`.
    package static func ok(since date: Date) -> BillingStatus {
        BillingStatus(state: .ok, since: date)
    }
}
