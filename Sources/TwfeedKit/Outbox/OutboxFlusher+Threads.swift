import Foundation
import Logging
import TwfeedCore

/// Threads: part N+1 goes out only once part N is `sent` with a known id (the store's
/// `nextDueOutboxItem` sees to it), as a reply to part N's post (the store sets its
/// `replyToID` as N is marked sent). A part whose parent will not go out (failed,
/// expired, cancelled, blocked itself, or sent without a known id) is `blocked` with
/// the reason, so `outbox` says why it waits; `outbox retry` of the parent resumes it.
extension OutboxFlusher {
    /// The states of a parent that leave its later parts nothing to reply to.
    static let parentGivenUp: Set<OutboxState> = [.failed, .expired, .cancelled, .blocked]

    /// One pass over the waiting parts (oldest first, so a chain blocks in one pass):
    /// each whose parent was given up is blocked, with the parent's state and reason.
    func blockOrphanedParts() async throws {
        var parts: [Int64: [OutboxItem]] = [:]
        for item in try await database.outboxItems(state: .pending) {
            guard let thread = item.thread, thread.part > 1 else { continue }
            if parts[thread.id] == nil { parts[thread.id] = try await database.threadParts(thread.id) }
            guard let parent = parts[thread.id]?.first(where: { $0.thread?.part == thread.part - 1 }) else { continue }
            let reason: String
            if Self.parentGivenUp.contains(parent.state) {
                reason =
                    "part \(thread.part - 1) (#\(parent.id)) is \(parent.state.rawValue)" + (parent.lastError.map { ": \($0.description)" } ?? "")
            } else if parent.state == .sent, parent.sentTweetID == nil {
                reason = "part \(thread.part - 1) (#\(parent.id)) went out without a known post id to reply to"
            } else {
                continue
            }
            if try await block(item, reason: reason) {
                // The parts after it see it blocked in this same pass.
                parts[thread.id] = try await database.threadParts(thread.id)
            }
        }
    }

    private func block(_ item: OutboxItem, reason: String) async throws -> Bool {
        let moved = try await database.transitionOutbox(
            item.id,
            from: [.pending],
            to: .blocked,
            changes: [.lastError(OutboxFailure(kind: .other, message: "blocked: " + reason)), .nextAttemptAt(nil)]
        )
        guard moved != nil else { return false }
        logger.warning(
            "outbox.blocked",
            metadata: ["id": "\(item.id)", "thread": "\(item.thread?.id ?? item.id)", "part": "\(item.thread?.part ?? 1)", "reason": "\(reason)"]
        )
        return true
    }
}
