import Dispatch
import Foundation
import TwfeedCore
import TwfeedStatus
import TwfeedStore

/// How the web reader queues, cancels and retries statuses: the same store transitions
/// as `twfeed post` and `twfeed outbox cancel|retry`, through a durable writer of its own
/// (a status the page says is queued survives a power loss), opened on first use, so
/// `twfeed serve` stays a reader until someone posts. After each change the outbox is
/// rung: the daemon's doorbell, or its wake socket from `serve`.
package final class DurableOutbox: ReaderOutbox {
    private let writer: LazyWriter
    private let wake: @Sendable () -> Void

    package init(path: String, wake: @escaping @Sendable () -> Void) {
        writer = LazyWriter(path: path, durable: true)
        self.wake = wake
    }

    package func enqueue(text: String, replyTo: TweetID?, now: Date) async throws -> OutboxItem {
        try await change { try await $0.enqueue(text: text, replyTo: replyTo, now: now) }
    }

    package func enqueue(_ draft: StatusDraft, now: Date) async throws -> OutboxItem {
        try await change { try await $0.enqueue(draft, now: now) }
    }

    package func enqueueThread(_ parts: [StatusDraft], now: Date) async throws -> [OutboxItem] {
        try await change { try await $0.enqueueThread(parts, now: now) }
    }

    package func cancel(_ id: Int64) async throws -> OutboxItem {
        try await change { try await $0.cancelOutbox(id) }
    }

    package func retry(_ id: Int64, now: Date) async throws -> OutboxItem {
        try await change { try await $0.retryOutbox(id, now: now) }
    }

    /// Opens the writer on a thread of its own (opening may migrate; the server's threads
    /// must not block), runs one store change (whose durable commit waits for the disk on
    /// the store's own queue), then rings the outbox.
    private func change<T: Sendable>(_ body: (AppDatabase) async throws -> T) async throws -> T {
        let database: AppDatabase = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.writer.database() })
            }
        }
        let result = try await body(database)
        wake()
        return result
    }
}
