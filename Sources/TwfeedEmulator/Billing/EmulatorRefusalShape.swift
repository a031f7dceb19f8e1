/// How the emulated API words a billing refusal: the body a client has to classify.
/// The status is the refusal's own whatever the shape (402, 403, 429), so a test can
/// give a client each body a server might send for it.
///
/// The raw values are the names `POST /_emulator/faults` (`shape`) and
/// `POST /_emulator/billing` (`refusalShape`) take.
public enum EmulatorRefusalShape: String, Sendable, CaseIterable {
    /// Each dialect's own: v2 the problem object of x-api.md's refusal table, v1.1 its
    /// errors list (as a server answered an empty balance in v1.1).
    case dialect
    /// The v2 problem object, in either dialect.
    case problem
    /// v1.1's errors list, `{"errors":[{"code":…,"message":…}]}`, in either dialect:
    /// the HTTP status as the code (402 as seen; the caps have no documented one), 453
    /// for an endpoint outside the account's access.
    case errors
    /// No body at all.
    case empty
    /// A proxy's HTML page.
    case html

    /// The shape this is in `dialect` (`dialect` resolved; the others as they are).
    func resolved(_ dialect: EmulatorDialect) -> EmulatorRefusalShape {
        guard self == .dialect else { return self }
        return dialect == .v1_1 ? .errors : .problem
    }
}
