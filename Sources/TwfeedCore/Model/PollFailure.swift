import Foundation

/// Why a feed's last poll failed or was held back: a typed value between the syncer that
/// records it and the edges that print it (`twfeed status`, `status --json`, the
/// reader's header), which print `description`, the one line they have always shown.
package struct PollFailure: Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Codable, Sendable, CaseIterable {
        /// 429: the feed waits for the rate limit's reset.
        case rateLimited = "rate_limited"
        /// 401: the credentials are wrong or revoked.
        case unauthorized
        /// 5xx, a timeout, a broken answer, or no answer at all: retried with backoff.
        case transient
        /// Any other 4xx: the request itself is refused.
        case rejected
        /// Held back by a billing state or an endpoint the API refuses (the budget's own
        /// hold is no failure and records none).
        case held
    }

    package var kind: Kind
    /// The HTTP status; nil when there was no answer, and for a hold.
    package var status: Int?
    /// The API's own error code (v1.1 `code`), when it gave one.
    package var code: Int?
    /// The API's reason, or what went wrong on the way; for a hold, the hold as the
    /// billing gate words it (its state and its end).
    package var message: String

    package init(kind: Kind, status: Int? = nil, code: Int? = nil, message: String) {
        self.kind = kind
        self.status = status
        self.code = code
        self.message = message
    }

    /// `HTTP 503: Service Unavailable`, `no answer: timed out`, `held (spend_cap) until …`.
    package var description: String {
        kind == .held ? message : Self.line(status: status, code: code, message: message)
    }

    /// A failed call's line: what `APIError` prints, so both read alike.
    package static func line(status: Int?, code: Int?, message: String) -> String {
        var text = status.map { "HTTP \($0)" } ?? "no answer"
        if let code { text += " code \(code)" }
        return "\(text): \(message)"
    }
}

/// The stored form, in `syncState.lastError` and in the status snapshot's `lastError`.
///
/// A small JSON object in the column the line used to fill, rather than new columns:
/// the failure is read and written whole and no query filters on its parts, so no
/// migration is needed, and a row or a snapshot written before it was typed (the bare
/// line) still reads, through `init(line:)`.
extension PollFailure: Codable {
    private enum CodingKeys: String, CodingKey { case kind, status, code, message }

    package init(from decoder: any Decoder) throws {
        if let line = try? decoder.singleValueContainer().decode(String.self) {
            self.init(line: line)
            return
        }
        let keyed = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try keyed.decode(Kind.self, forKey: .kind),
            status: try keyed.decodeIfPresent(Int.self, forKey: .status),
            code: try keyed.decodeIfPresent(Int.self, forKey: .code),
            message: try keyed.decode(String.self, forKey: .message)
        )
    }

    package func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        try keyed.encode(kind, forKey: .kind)
        try keyed.encodeIfPresent(status, forKey: .status)
        try keyed.encodeIfPresent(code, forKey: .code)
        try keyed.encode(message, forKey: .message)
    }

    /// The column's text: the JSON object, keys sorted so a value always stores alike.
    package var stored: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Four plain fields always encode.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? message
    }

    /// Reads the column's text: the JSON object, or a line stored before it was typed.
    package init(stored text: String) {
        if text.hasPrefix("{"), let value = try? JSONDecoder().decode(PollFailure.self, from: Data(text.utf8)) {
            self = value
        } else {
            self.init(line: text)
        }
    }

    /// A line as older versions stored it (`HTTP 429 code 88: …`, `no answer: …`,
    /// `held (…) until …`), read back into its parts so it prints the same.
    init(line: String) {
        if line.hasPrefix("held (") {
            self.init(kind: .held, message: line)
            return
        }
        guard let parts = Self.parts(ofLine: line) else {
            self.init(kind: .transient, message: line)
            return
        }
        let kind: Kind =
            switch parts.status {
            case nil: .transient
            case 429?: .rateLimited
            case 401?: .unauthorized
            case let status? where (400..<500).contains(status) && status != 408: .rejected
            default: .transient
            }
        self.init(kind: kind, status: parts.status, code: parts.code, message: parts.message)
    }

    /// A failed call's line (`line(status:code:message:)`) read back into its parts: the
    /// status (nil for `no answer`), the code and the message; nil when `text` is no such
    /// line. The outbox's `OutboxFailure` reads its lines with it too.
    package static func parts(ofLine text: String) -> (status: Int?, code: Int?, message: String)? {
        guard let colon = text.range(of: ": ") else { return nil }
        var words = text[..<colon.lowerBound].split(separator: " ").map(String.init)
        let message = String(text[colon.upperBound...])
        var code: Int?
        if words.count >= 2, words[words.count - 2] == "code", let number = Int(words[words.count - 1]) {
            code = number
            words.removeLast(2)
        }
        switch words {
        case ["no", "answer"]:
            return (nil, code, message)
        case let http where http.count == 2 && http[0] == "HTTP" && Int(http[1]) != nil:
            return (Int(http[1])!, code, message)
        default:
            return nil
        }
    }
}
