/// How the emulated pay-per-use API bills and refuses at start; each setting can be
/// changed later on `Emulator` (`setCredits(usd:)`, …) or with `POST /_emulator/billing`.
/// The defaults charge the published rates but never refuse: no prepaid limit, no spend
/// cap, the API's own usage cap of 3,000,000 post reads a cycle, every endpoint enrolled.
public struct EmulatorBillingConfiguration: Sendable {
    public var prices = EmulatorPrices()
    /// Whether the account owns the developer app: its own mentions and posts then cost
    /// the owned read price.
    public var ownsApp = true
    /// The prepaid balance in dollars; nil is unlimited. At 0 or below, every API request
    /// answers 402 `CreditsDepleted`.
    public var creditsUSD: Double? = nil
    /// The billing cycle's spend cap in dollars; nil is none. Once the cycle's spend
    /// reaches it, every API request answers 403 `SpendCapReached` until the next cycle.
    public var spendCapUSD: Double? = nil
    /// Post reads (plain and owned) a cycle may charge before reads answer 429
    /// `UsageCapExceeded`; nil is none.
    public var usageCapPostReads: Int? = 3_000_000
    /// The day of the month (1-28; others are clamped) a cycle starts on, at 00:00 UTC.
    public var cycleStartDay = 1
    /// Endpoints the API refuses to this account, and why.
    public var notEnrolled: [EmulatorEndpoint: EmulatorRefusal] = [:]
    /// Whether a reply is refused (403) unless the post it answers mentioned or quoted the
    /// account, as for self-serve accounts.
    public var repliesRequireSummons = false
    /// How the refusals above are worded: each dialect's own by default.
    public var refusalShape = EmulatorRefusalShape.dialect

    public init() {}
}
