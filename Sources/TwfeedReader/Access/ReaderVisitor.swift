/// Who a request comes from, as `ReaderAccess` found it.
package enum ReaderVisitor: Sendable, Equatable {
    /// No session, no bearer: only the open routes.
    case anonymous
    /// A browser signed in through `twfeed open`'s link; the session's id.
    case session(String)
    /// A script that sent `Authorization: Bearer` with the secret.
    case bearer
    /// Anyone, under `http.auth: "none"`.
    case open

    var signedIn: Bool { self != .anonymous }

    /// What the visitor's CSRF token is bound to; nil when it may not post at all.
    var formBinding: String? {
        switch self {
        case .anonymous: nil
        case .session(let id): "session:\(id)"
        case .bearer: "bearer"
        case .open: "open"
        }
    }
}
