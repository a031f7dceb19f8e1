import Foundation
import TwfeedCore

/// What the compose and outbox pages may change: the outbox's transitions a user asks
/// for (`twfeed post`, `twfeed thread`, `twfeed outbox cancel|retry`), no more. The reader target
/// holds a `StoreReader` only; the writer behind this (`DurableOutbox`) is handed in by
/// whoever builds the server, the daemon or `twfeed serve`.
package protocol ReaderOutbox: Sendable {
    func enqueue(text: String, replyTo: TweetID?, now: Date) async throws -> OutboxItem
    /// A post with its photos' bytes and its time to send, checked by the caller.
    func enqueue(_ draft: StatusDraft, now: Date) async throws -> OutboxItem
    /// A thread, whole or not at all: part N+1 replies to part N once N's id is known.
    func enqueueThread(_ parts: [StatusDraft], now: Date) async throws -> [OutboxItem]
    func cancel(_ id: Int64) async throws -> OutboxItem
    func retry(_ id: Int64, now: Date) async throws -> OutboxItem
}
