import Foundation
import Testing
import TwfeedCore
@testable import TwfeedStore

/// `outbox retry` on a thread: the part that failed, or one its failure blocked, goes
/// back in line, and the parts its failure blocked after it with it.
struct OutboxRetryBlockedTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A four-part thread whose part 2 failed for good and parts 3 and 4 are blocked.
    func thread() async throws -> (AppDatabase, [OutboxItem]) {
        let database = try AppDatabase.inMemory()
        let parts = try await database.enqueueThread((1...4).map { StatusDraft(text: "part \($0)") }, now: now)
        _ = try await database.transitionOutbox(parts[0].id, from: [.pending], to: .sending)
        _ = try await database.transitionOutbox(parts[0].id, from: [.sending], to: .sent, changes: [.sentTweetID(TweetID(900))])
        _ = try await database.transitionOutbox(
            parts[1].id, from: [.pending], to: .failed, changes: [.lastError(OutboxFailure(kind: .attempt, status: 403, message: "Forbidden"))])
        for part in parts[2...] {
            _ = try await database.transitionOutbox(
                part.id, from: [.pending], to: .blocked, changes: [.lastError(OutboxFailure(kind: .other, message: "part 2 failed"))])
        }
        return (database, parts)
    }

    @Test func retryingThePartThatFailedResumesThePartsItBlocked() async throws {
        let (database, parts) = try await thread()
        let later = now.addingTimeInterval(3600)
        let retried = try await database.retryOutbox(parts[1].id, now: later)
        #expect(retried.state == .pending)
        let states = try await database.threadParts(parts[0].id).map(\.state)
        #expect(states == [.sent, .pending, .pending, .pending])
        let resumed = try await database.threadParts(parts[0].id)[3]
        #expect(resumed.lastError == nil && resumed.queuedAt == later)
        // They still go out in order: part 2 first, replying to part 1.
        let next = try #require(try await database.nextDueOutboxItem(now: later))
        #expect(next.id == parts[1].id && next.replyToID == TweetID(900))
    }

    @Test func aBlockedPartWaitsForItsParentToBeRetriedFirstAndSaysWhich() async throws {
        let (database, parts) = try await thread()
        // Part 4 waits for part 3, itself blocked: retrying part 4 names the part to retry.
        await #expect(
            throws: TwfeedError(
                .invalidData, "outbox: status #\(parts[3].id) waits for part 3 (#\(parts[2].id)), which is blocked: retry #\(parts[2].id) first")
        ) {
            try await database.retryOutbox(parts[3].id, now: now)
        }
        #expect(try await database.threadParts(parts[0].id).map(\.state) == [.sent, .failed, .blocked, .blocked], "nothing changed")
        // Once part 2 is back in line, a blocked part after it may be retried on its own.
        _ = try await database.transitionOutbox(parts[1].id, from: [.failed], to: .pending)
        let retried = try await database.retryOutbox(parts[2].id, now: now)
        #expect(retried.state == .pending && retried.lastError == nil)
        await #expect(throws: TwfeedError(.invalidData, "outbox: status #\(parts[0].id) is sent; only failed, expired or blocked statuses can be retried")) {
            try await database.retryOutbox(parts[0].id, now: now)
        }
    }
}
