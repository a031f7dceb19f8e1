import Foundation

/// One field a state transition of an outbox status sets alongside the new state
/// (`AppDatabase.transitionOutbox`): typed, so a caller cannot name a column that does
/// not exist or give it a value of the wrong kind.
public enum OutboxChange: Sendable, Equatable {
    case attempts(Int)
    /// Where the age for the expiry policy counts from (`outbox retry` resets it).
    case queuedAt(Date)
    case nextAttemptAt(Date?)
    case lastAttemptAt(Date)
    case lastError(String?)
    case sentTweetID(TweetID?)
    case sentAt(Date)
}
