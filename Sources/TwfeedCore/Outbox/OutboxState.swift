/// Where a queued status stands. `pending`, `sending` and `uncertain` are still on their
/// way; `uncertain` may already have gone out (an attempt got no definite answer) and is
/// settled by reading the account's own tweets before anything is sent again.
/// `blocked` is a thread part whose parent failed for good (or went out without a known
/// id): it waits, with the reason, for `outbox retry`.
package enum OutboxState: String, Sendable, CaseIterable, Codable {
    case pending, sending, sent, failed, expired, cancelled, uncertain, blocked

    /// A status in this state may be on the API already: never expired, never posted
    /// blindly.
    package var mayHaveGoneOut: Bool { self == .sending || self == .uncertain }

    /// Still on its way (`pending`, `sending`, `uncertain`): what systemd's `STATUS=` line
    /// counts as pending.
    package var isUnderway: Bool { self == .pending || mayHaveGoneOut }
}
