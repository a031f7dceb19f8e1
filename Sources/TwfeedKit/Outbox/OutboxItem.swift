import Foundation
import TwfeedBase

/// One status in the outbox.
public struct OutboxItem: Sendable, Equatable {
    public var id: Int64
    public var text: String
    public var replyToID: TweetID?
    public var state: OutboxState
    public var attempts: Int
    /// When the user queued it.
    public var createdAt: Date
    /// Where its age counts from for the expiry policy: the queue time, or the last
    /// `outbox retry`.
    public var queuedAt: Date
    public var nextAttemptAt: Date?
    public var lastError: String?
    public var sentTweetID: TweetID?
    public var sentAt: Date?
    /// When the last attempt started.
    public var lastAttemptAt: Date?
    /// When the earliest attempt that may have gone out started (`OutboxChange.uncertainSince`).
    public var uncertainSince: Date?

    /// INTERFACE.md's `outbox list --json` object.
    public var json: JSONValue {
        .object([
            "id": .string(String(id)),
            "text": .string(text),
            "replyToId": replyToID.map { .string($0.description) } ?? .null,
            "state": .string(state.rawValue),
            "attempts": .number(String(attempts)),
            "createdAt": .string(Timestamp.iso8601(createdAt)),
            "queuedAt": .string(Timestamp.iso8601(queuedAt)),
            "nextAttemptAt": nextAttemptAt.map { .string(Timestamp.iso8601($0)) } ?? .null,
            "lastError": lastError.map { .string($0) } ?? .null,
            "sentTweetId": sentTweetID.map { .string($0.description) } ?? .null,
            "sentAt": sentAt.map { .string(Timestamp.iso8601($0)) } ?? .null,
            "uncertainSince": uncertainSince.map { .string(Timestamp.iso8601($0)) } ?? .null,
        ])
    }
}
