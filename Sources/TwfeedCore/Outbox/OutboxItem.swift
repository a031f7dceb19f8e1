import Foundation
import TwfeedBase

/// One status in the outbox.
package struct OutboxItem: Sendable, Equatable {
    package var id: Int64
    package var text: String
    package var replyToID: TweetID?
    package var state: OutboxState
    package var attempts: Int
    /// When the user queued it.
    package var createdAt: Date
    /// Where its age counts from for the expiry policy: the queue time, or the last
    /// `outbox retry`.
    package var queuedAt: Date
    package var nextAttemptAt: Date?
    /// The last failed attempt or lookup, the expiry, or the note of a status sent on a
    /// duplicate answer; nil once it went out plainly.
    package var lastError: OutboxFailure?
    package var sentTweetID: TweetID?
    package var sentAt: Date?
    /// When the last attempt started.
    package var lastAttemptAt: Date?
    /// When the earliest attempt that may have gone out started (`OutboxChange.uncertainSince`).
    package var uncertainSince: Date?
    /// The newest tweet id twfeed knew before the earliest attempt that may have gone
    /// out: a lower bound on the server's clock (ids are snowflakes), so settling looks
    /// only at own posts with a larger id and compares no clocks. Nil when nothing was
    /// known (an empty database) or the attempt predates v12: settling falls back on
    /// `uncertainSince`.
    package var newestIDBeforeAttempt: TweetID?

    package init(
        id: Int64,
        text: String,
        replyToID: TweetID?,
        state: OutboxState,
        attempts: Int,
        createdAt: Date,
        queuedAt: Date,
        nextAttemptAt: Date? = nil,
        lastError: OutboxFailure? = nil,
        sentTweetID: TweetID? = nil,
        sentAt: Date? = nil,
        lastAttemptAt: Date? = nil,
        uncertainSince: Date? = nil,
        newestIDBeforeAttempt: TweetID? = nil
    ) {
        self.id = id
        self.text = text
        self.replyToID = replyToID
        self.state = state
        self.attempts = attempts
        self.createdAt = createdAt
        self.queuedAt = queuedAt
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.sentTweetID = sentTweetID
        self.sentAt = sentAt
        self.lastAttemptAt = lastAttemptAt
        self.uncertainSince = uncertainSince
        self.newestIDBeforeAttempt = newestIDBeforeAttempt
    }

    /// INTERFACE.md's `outbox list --json` object.
    package var json: JSONValue {
        .object([
            "id": .string(String(id)),
            "text": .string(text),
            "replyToId": replyToID.map { .string($0.description) } ?? .null,
            "state": .string(state.rawValue),
            "attempts": .number(String(attempts)),
            "createdAt": .string(Timestamp.iso8601(createdAt)),
            "queuedAt": .string(Timestamp.iso8601(queuedAt)),
            "nextAttemptAt": nextAttemptAt.map { .string(Timestamp.iso8601($0)) } ?? .null,
            "lastError": lastError.map { .string($0.description) } ?? .null,
            "sentTweetId": sentTweetID.map { .string($0.description) } ?? .null,
            "sentAt": sentAt.map { .string(Timestamp.iso8601($0)) } ?? .null,
            "uncertainSince": uncertainSince.map { .string(Timestamp.iso8601($0)) } ?? .null,
        ])
    }
}
