/// Where a queued status stands. Only `pending` and `sending` are still on their way.
public enum OutboxState: String, Sendable, CaseIterable, Codable {
    case pending, sending, sent, failed, expired, cancelled
}
