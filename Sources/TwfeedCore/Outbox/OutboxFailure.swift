/// Why an outbox status is where it is, when an answer or a rule put it there: a failed
/// attempt, a lookup of a status that may have gone out, the expiry, or the note of one
/// sent on the strength of a duplicate answer. A typed value between the flusher that
/// records it and the edges that print it; `description` is the one line those edges
/// (`outbox list`, its `--json`, the reader's `/outbox`) and the store's column
/// (`outbox.lastError`, read as is by the `posts` view) have always held.
///
/// The store keeps the line, not a structure (unlike `PollFailure`): the `posts` view
/// hands the column to SQL users unchanged, so its text is an interface. A line is read
/// back into its parts (`init(stored:)`); one this version cannot read so that it prints
/// the same, an older or a newer version's wording, stays whole as `.other`.
package struct OutboxFailure: Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable, CaseIterable {
        /// An attempt the API refused, or left without an answer: `status` (nil for no
        /// answer), `code` and the API's reason. The status is pending again, uncertain,
        /// or failed, as the flusher decided.
        case attempt
        /// The status waited in the queue longer than `outbox.maxAgeHours`: `message` says
        /// how long (`after 49.0 h in the queue (maxAgeHours 48.0)`).
        case expired
        /// Reading the account's own posts, to settle a status that may have gone out,
        /// failed: the read's answer (`status`, `code`, reason).
        case settlingFailed
        /// That read was held back by the billing gate: `message` is the hold.
        case settlingHeld
        /// The own posts cannot be read, so the status is sent again (a duplicate answer
        /// then proves it went out): `message` says why.
        case settlingResend
        /// Not a failure: sent on the strength of the API calling a resend a duplicate;
        /// `status`, `code` and `message` are that answer's.
        case sentAsDuplicate
        /// A line this version does not read into parts, kept whole in `message`.
        case other
    }

    package var kind: Kind
    /// The API's reason, or what the kind's line says besides its fixed words.
    package var message: String
    /// The HTTP status of the answer, when there was one.
    package var status: Int?
    /// The API's own error code (v1.1 `code`), when it gave one.
    package var code: Int?

    package init(kind: Kind, status: Int? = nil, code: Int? = nil, message: String) {
        self.kind = kind
        self.message = message
        self.status = status
        self.code = code
    }

    /// The note's fixed words for `.sentAsDuplicate`.
    package static let duplicateNote = "sent: the API called a resend a duplicate"
    static let settling = "settling: "
    static let resendTail = "; sending again, a duplicate answer proves it went out"

    /// Expired after `age` hours in the queue, over `limit` (both as the flusher formats them).
    package static func expired(age: String, limit: String) -> OutboxFailure {
        OutboxFailure(kind: .expired, message: "after \(age) h in the queue (maxAgeHours \(limit))")
    }

    /// The one line: `HTTP 503: …`, `no answer: …`, `settling: held (…) until …`,
    /// `sent: the API called a resend a duplicate (HTTP 403 code 187: …)`, `expired after …`.
    package var description: String {
        switch kind {
        case .attempt: answer
        case .expired: "expired \(message)"
        case .settlingFailed: Self.settling + answer
        case .settlingHeld: Self.settling + message
        case .settlingResend: Self.settling + message + Self.resendTail
        case .sentAsDuplicate: "\(Self.duplicateNote) (\(answer))"
        case .other: message
        }
    }

    /// An answer's line, as `APIError` and `PollFailure` print it.
    private var answer: String { PollFailure.line(status: status, code: code, message: message) }

    /// Reads the column's line (this version's, or an older one's) back into its parts;
    /// `description` gives the same line back, byte for byte, whatever it was.
    package init(stored line: String) {
        let parsed = Self.parse(line)
        self = parsed?.description == line ? parsed! : OutboxFailure(kind: .other, message: line)
    }

    private static func parse(_ line: String) -> OutboxFailure? {
        if line.hasPrefix(settling) {
            let rest = String(line.dropFirst(settling.count))
            if rest.hasPrefix("held (") { return OutboxFailure(kind: .settlingHeld, message: rest) }
            if rest.hasSuffix(resendTail) { return OutboxFailure(kind: .settlingResend, message: String(rest.dropLast(resendTail.count))) }
            return answered(.settlingFailed, rest)
        }
        if line.hasPrefix(duplicateNote + " ("), line.hasSuffix(")") {
            return answered(.sentAsDuplicate, String(line.dropFirst(duplicateNote.count + 2).dropLast()))
        }
        if line.hasPrefix("expired after ") { return OutboxFailure(kind: .expired, message: String(line.dropFirst("expired ".count))) }
        return answered(.attempt, line)
    }

    private static func answered(_ kind: Kind, _ text: String) -> OutboxFailure? {
        PollFailure.parts(ofLine: text).map { OutboxFailure(kind: kind, status: $0.status, code: $0.code, message: $0.message) }
    }
}
