/// Why a request got no HTTP answer at all. An answer with an error status is an
/// `APIResponse`, not this.
package struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        case timeout, connectionFailed, connectionReset, responseTooLarge, cancelled, invalidURL, other
        /// Every address the host resolved to is behind the request's `AddressWall`:
        /// nothing was sent.
        case addressNotAllowed
    }

    package var kind: Kind
    package var detail: String
    /// The connection died before any answer while the request went over a reused
    /// keep-alive connection (curl 52, 55 or 56 with no new connection made): the
    /// server may have closed it as the request arrived. A read is worth sending again
    /// at once, signed afresh, on a new connection; a post never (it may have arrived).
    package var diedOnReusedConnection: Bool

    package init(_ kind: Kind, _ detail: String, diedOnReusedConnection: Bool = false) {
        self.kind = kind
        self.detail = detail
        self.diedOnReusedConnection = diedOnReusedConnection
    }

    package var description: String { "\(kind.rawValue): \(detail)" }
}
