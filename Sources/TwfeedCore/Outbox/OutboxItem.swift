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
    /// A post, or the deletion of `targetTweetID`.
    package var kind: OutboxKind
    /// The post's photos in their order, without their bytes.
    package var photos: [OutboxPhoto]
    /// Not sent before this time (`--at`); the expiry counts from it.
    package var notBefore: Date?
    /// Its place in a thread queued in one go; its `replyToID` is set from its parent's
    /// `sentTweetID` in the transaction that marks the parent sent.
    package var thread: OutboxThread?
    /// The post a deletion removes.
    package var targetTweetID: TweetID?

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
        newestIDBeforeAttempt: TweetID? = nil,
        kind: OutboxKind = .post,
        photos: [OutboxPhoto] = [],
        notBefore: Date? = nil,
        thread: OutboxThread? = nil,
        targetTweetID: TweetID? = nil
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
        self.kind = kind
        self.photos = photos
        self.notBefore = notBefore
        self.thread = thread
        self.targetTweetID = targetTweetID
    }

    /// Where its age for the expiry policy counts from: the queue time (or the last
    /// `outbox retry`), or its time to send when that is later.
    package var ageOrigin: Date { max(queuedAt, notBefore ?? queuedAt) }

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
            "kind": .string(kind.rawValue),
            "photos": .array(photos.map(\.json)),
            "replyTo": replyToID.map { .string($0.description) } ?? .null,
            "notBefore": notBefore.map { .string(Timestamp.iso8601($0)) } ?? .null,
            "thread": thread?.json ?? .null,
            "targetTweetId": targetTweetID.map { .string($0.description) } ?? .null,
        ])
    }
}
