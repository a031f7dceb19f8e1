/// Why the API refuses an endpoint to this account whatever it pays: not a billing state
/// but a fact about one feed (`"permitted": false` in `twfeed status`), which only a
/// person can change in the developer console. Polling such a feed again changes nothing,
/// so the daemon stops and says what to do.
///
/// The raw values are the API's own `reason` words where it has them; they appear in the
/// feed's `refusal` field and the `feed.not_permitted` log event.
package enum NotPermittedReason: String, CaseIterable, Sendable, Hashable {
    /// 403 `client-forbidden`, `reason: client-not-enrolled`: the app's keys are not
    /// attached to a Project enrolled in a package that includes the endpoint.
    case clientNotEnrolled = "client-not-enrolled"
    /// 403 `client-forbidden`, `reason: user-not-enrolled`: the same for the user.
    case userNotEnrolled = "user-not-enrolled"
    /// 403 `Unsupported Authentication`: the endpoint does not take OAuth 1.0a user context.
    case unsupportedAuthentication = "unsupported-authentication"
    /// v1.1 error code 453: the endpoint is outside the account's access level.
    case accessLevel = "access-level"

    /// One line for a person, saying what to change so the feed works again.
    package var advice: String {
        switch self {
        case .clientNotEnrolled:
            "In the X developer console, attach this app to a Project and enroll it in the pay-per-use package."
        case .userNotEnrolled:
            "Enroll the signed-in account in the pay-per-use package in the X developer console, or sign in with an enrolled account."
        case .unsupportedAuthentication:
            "This endpoint does not accept OAuth 1.0a user tokens; use the v2 dialect, or turn this feed off."
        case .accessLevel:
            "The v1.1 endpoints are Enterprise-only: set api.dialect to \"v2\", or upgrade the account's access level."
        }
    }
}
