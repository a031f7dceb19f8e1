/// Why the billing side refuses an API request before it is served (x-api.md's refusal
/// table). None is a rate limit, and none uses up the rate-limit window.
enum BillingRefusal: Equatable {
    /// The endpoint is outside the account's access.
    case notEnrolled(EmulatorRefusal)
    /// The prepaid balance is at 0 or below.
    case creditsDepleted
    /// The cycle's spend reached the cap; requests resume on `resetDate` (`YYYY-MM-DD`).
    case spendCapReached(resetDate: String)
    /// The cycle's post reads reached the usage cap (reads only).
    case usageCapExceeded
}
