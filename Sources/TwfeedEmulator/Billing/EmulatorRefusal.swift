/// Why the API refuses an endpoint to this account although the request is well signed:
/// the app or the user is not enrolled in a package that includes it, or the endpoint
/// does not take OAuth 1.0a user context (x-api.md's refusal table). The raw values are
/// the v2 bodies' `reason` (and the names `POST /_emulator/billing` takes).
///
/// v2 answers each with its own 403 problem; v1.1 answers all three with its one shape
/// for "outside your access": 403 code 453.
public enum EmulatorRefusal: String, Sendable, CaseIterable {
    case clientNotEnrolled = "client-not-enrolled"
    case userNotEnrolled = "user-not-enrolled"
    case unsupportedAuthentication = "unsupported-authentication"
}
