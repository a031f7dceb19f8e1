/// Why a request got no HTTP answer at all. An answer with an error status is an
/// `APIResponse`, not this.
package struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        case timeout, connectionFailed, connectionReset, responseTooLarge, cancelled, invalidURL, other
    }

    package var kind: Kind
    package var detail: String

    package init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    package var description: String { "\(kind.rawValue): \(detail)" }
}
