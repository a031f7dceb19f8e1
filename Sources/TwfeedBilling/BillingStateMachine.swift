import Foundation

/// The rules for moving between billing states and for what each state lets through.
///
/// While the API refuses for money, every further request would be refused too (free,
/// but noisy, and a usage cap lasts weeks), yet the only way to learn that the account has
/// recovered is to ask. So each state lets one probe through at a time:
/// - `out_of_credits`: nothing billable, except one probe every `recheck` interval
///   (`api.creditsRecheckMinutes`): credits come back whenever someone adds them, and an
///   auto-recharge may take minutes.
/// - `spend_cap`: nothing until the API's `reset_date` (00:00 UTC), then a probe; after
///   that, or with no reset date, one every `recheck`.
/// - `usage_cap`: posts go out (the cap counts reads); reads wait for the cycle to reset,
///   with one read a day as a probe in case the cycle was configured wrong or X lifted
///   the cap early.
/// - `ok`, `budget_limited`: the state stops nothing; the budget is `BudgetPlan`'s.
///
/// Every function takes the current `BillingStatus` and the time and returns a decision
/// or the next status: nothing here reads a clock or keeps state of its own.
package struct BillingStateMachine: Hashable, Sendable {
    /// Time between probes while out of credits (and under a spend cap past its date).
    package let recheck: TimeInterval
    /// The cycle a usage cap lasts to.
    package let cycle: BillingCycle

    /// A shorter recheck would turn probing into polling; a zero would probe in a loop.
    package static let minimumRecheck: TimeInterval = 60
    /// One read a day while the usage cap holds.
    package static let usageCapProbeInterval: TimeInterval = 86_400

    package init(recheck: TimeInterval, cycle: BillingCycle) {
        self.recheck = recheck.isNaN ? Self.minimumRecheck : Swift.max(recheck, Self.minimumRecheck)
        self.cycle = cycle
    }

    /// Whether a request of `action` may go out now.
    package func decide(_ action: BillableAction, in status: BillingStatus, now: Date) -> BillingDecision {
        switch status.state {
        case .ok, .budgetLimited:
            return .allow
        case .usageCap where action == .post:
            return .allow
        case .usageCap, .outOfCredits, .spendCap:
            guard let due = nextProbe(in: status) else { return .allow }
            return now >= due ? .probe : .wait(until: due)
        }
    }

    /// When the state's next probe may go out; nil in states that stop nothing.
    package func nextProbe(in status: BillingStatus) -> Date? {
        let last = status.lastProbe ?? status.since
        switch status.state {
        case .ok, .budgetLimited:
            return nil
        case .outOfCredits:
            return last.addingTimeInterval(recheck)
        case .spendCap:
            guard let reset = status.until else { return last.addingTimeInterval(recheck) }
            // The first probe at the reset itself; later ones at the recheck pace.
            if let probe = status.lastProbe, probe >= reset { return probe.addingTimeInterval(recheck) }
            return reset
        case .usageCap:
            let daily = last.addingTimeInterval(Self.usageCapProbeInterval)
            guard let cycleEnd = status.until, last < cycleEnd else { return daily }
            return Swift.min(daily, cycleEnd)
        }
    }

    /// The status after the API refused a request with `refusal` at `now`. Staying in the
    /// same state keeps `since` (how long it has lasted is what a person wants to know)
    /// and counts the refusal as the latest probe; a different state starts afresh.
    /// A refusal of one endpoint (`notPermitted`) leaves the account's status alone.
    package func refused(_ refusal: BillingRefusal, in status: BillingStatus, at now: Date) -> BillingStatus {
        guard let state = BillingState(entering: refusal) else { return status }
        let until: Date?
        switch refusal {
        case .spendCapReached(let resetDate, _):
            until = resetDate ?? (status.state == .spendCap ? status.until : nil)
        case .usageCapExceeded:
            until = cycle.cycle(containing: now).end
        case .creditsDepleted, .notPermitted:
            until = nil
        }
        guard status.state == state else {
            return BillingStatus(state: state, since: now, until: until, detail: refusal.detail)
        }
        var next = status
        next.until = until
        next.detail = refusal.detail
        next.lastProbe = Swift.max(status.lastProbe ?? now, now)
        return next
    }

    /// The status after a request of `action` was answered with success (any 2xx, even an
    /// empty page) at `now`: the refusal is over. Under a usage cap only a read proves
    /// that, since posts were never stopped.
    package func succeeded(_ action: BillableAction, in status: BillingStatus, at now: Date) -> BillingStatus {
        switch status.state {
        case .ok, .budgetLimited:
            return status
        case .usageCap where action == .post:
            return status
        case .usageCap, .outOfCredits, .spendCap:
            return .ok(since: now)
        }
    }

    /// The status once a `.probe` decision was acted on at `now`.
    package func probed(_ status: BillingStatus, at now: Date) -> BillingStatus {
        var next = status
        next.lastProbe = now
        return next
    }

    /// The status after the budget was checked at `now`: `limited` when a request the
    /// schedule wanted did not fit in today's allowance. `budget_limited` lasts until the
    /// allowance is renewed at the next 00:00 UTC. A refusal state outranks it: while the
    /// API refuses, the budget is not what stops twfeed.
    package func budget(limited: Bool, in status: BillingStatus, at now: Date) -> BillingStatus {
        switch status.state {
        case .ok where limited:
            return BillingStatus(state: .budgetLimited, since: now, until: BillingCycle.endOfUTCDay(now))
        case .budgetLimited where limited:
            var next = status
            next.until = BillingCycle.endOfUTCDay(now)
            return next
        case .budgetLimited:
            return .ok(since: now)
        case .ok, .outOfCredits, .spendCap, .usageCap:
            return status
        }
    }
}
