import Foundation

/// One field a state transition of an outbox status sets alongside the new state
/// (`AppDatabase.transitionOutbox`): typed, so a caller cannot name a column that does
/// not exist or give it a value of the wrong kind.
package enum OutboxChange: Sendable, Equatable {
    case attempts(Int)
    /// Where the age for the expiry policy counts from (`outbox retry` resets it).
    case queuedAt(Date)
    case nextAttemptAt(Date?)
    case lastAttemptAt(Date)
    case lastError(OutboxFailure?)
    case sentTweetID(TweetID?)
    case sentAt(Date)
    /// When the earliest attempt that may have gone out started: settling looks for the
    /// status among the account's tweets from then on. Nil: every attempt got a definite
    /// answer (or none was made).
    case uncertainSince(Date?)
    /// The newest tweet id twfeed knew before the earliest attempt that may have gone
    /// out (`OutboxItem.newestIDBeforeAttempt`). Nil with `uncertainSince(nil)`.
    case newestIDBeforeAttempt(TweetID?)
}
