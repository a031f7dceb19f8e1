import Foundation

/// What the billing state says about one request about to be sent.
package enum BillingDecision: Hashable, Sendable {
    /// Send it: the state does not stop it (the budget may still, through `BudgetPlan`).
    case allow
    /// Send it as the state's one probe: whether the account has recovered is only
    /// learnt by asking, and a refused request costs nothing. The caller records it with
    /// `BillingStateMachine.probed(_:at:)` before sending, so that no second request
    /// goes out as a probe meanwhile.
    case probe
    /// Do not send it before this time; ask again then.
    case wait(until: Date)
}
