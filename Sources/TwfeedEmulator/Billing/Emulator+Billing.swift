import Foundation

/// The pay-per-use bill (x-api.md, "Paying for it"): what the emulated API charged, and
/// the settings that make it refuse for money or access. The same controls are
/// `GET`/`DELETE /_emulator/bill` and `GET`/`POST /_emulator/billing`.
///
/// Days and cycles go by the emulator's clock (`now`, skew included): a test moves the
/// skew past UTC midnight to see a page charged again, or past a cycle's end to see a
/// spend cap lifted.
extension Emulator {
    /// What has been charged: totals, the current cycle, per UTC day and per endpoint, with
    /// counts and money per kind of resource, and the credits left.
    public func bill() -> EmulatorBill {
        core.state.withLock { state in state.billing.bill(today: BillingCalendar.day(state.now)) }
    }

    /// Forgets every charge (totals, days, cycle spend, the day's deduplication). Settings
    /// and the credit balance stay.
    public func resetBill() {
        core.state.withLock { $0.billing.resetTally() }
    }

    /// The prepaid balance in dollars (rounded to 6 decimals); nil when unlimited.
    public var credits: Double? {
        core.state.withLock { $0.billing.creditsMicros }.map(MicroDollars.usd)
    }

    /// Sets the prepaid balance (nil: unlimited; not finite counts as 0). At 0 or below,
    /// every API request answers 402 `CreditsDepleted`; a positive balance serves again
    /// from the next request.
    public func setCredits(usd: Double?) {
        core.state.withLock { $0.billing.creditsMicros = usd.map { MicroDollars.from(usd: $0) ?? 0 } }
    }

    /// Sets the billing cycle's spend cap (nil: none; not finite counts as 0). Once the
    /// cycle's charges reach it, every API request answers 403 `SpendCapReached` until
    /// the next cycle begins.
    public func setSpendCap(usd: Double?) {
        core.state.withLock { $0.billing.spendCapMicros = usd.map { MicroDollars.from(usd: $0) ?? 0 } }
    }

    /// Sets how many post reads (plain and owned) a cycle may charge before reads answer
    /// 429 `UsageCapExceeded` (nil: no cap; the API's is 3,000,000). Posts still go through.
    public func setUsageCap(postReads: Int?) {
        core.state.withLock { $0.billing.usageCapPostReads = postReads.map { max(0, $0) } }
    }

    /// Cycles start on this day of the month (1-28; others are clamped) at 00:00 UTC. The
    /// current cycle is recomputed around today and starts with nothing spent.
    public func setCycleStartDay(_ day: Int) {
        core.state.withLock { state in state.billing.setCycleStartDay(day, today: BillingCalendar.day(state.now)) }
    }

    /// Makes the API refuse `endpoint` to this account for `refusal` (nil: serve it again).
    public func setNotEnrolled(_ refusal: EmulatorRefusal?, for endpoint: EmulatorEndpoint) {
        core.state.withLock { $0.billing.refusals[endpoint] = refusal }
    }

    /// How the billing refusals are worded from now on (`dialect`: each dialect's own;
    /// the others force one shape in both, so a client meets what another server sends).
    public func setRefusalShape(_ shape: EmulatorRefusalShape) {
        core.state.withLock { $0.billing.refusalShape = shape }
    }

    /// Whether a reply must answer a post that mentioned or quoted the account (else 403),
    /// as for self-serve accounts. Replies to the account's own posts stay allowed.
    public func setRepliesRequireSummons(_ required: Bool) {
        core.state.withLock { $0.billing.repliesRequireSummons = required }
    }

    /// The prices charged from now on (charges already made keep theirs).
    public var prices: EmulatorPrices {
        core.state.withLock { $0.billing.prices }
    }

    public func setPrices(_ prices: EmulatorPrices) {
        core.state.withLock { $0.billing.prices = prices }
    }

    /// Whether the account owns the developer app, which makes its own mentions and posts
    /// cost the owned read price (else the normal post read price).
    public func setOwnsApp(_ owns: Bool) {
        core.state.withLock { $0.billing.ownsApp = owns }
    }
}
