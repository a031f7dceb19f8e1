import Foundation
import Synchronization
import Testing
@testable import TwfeedCore
@testable import TwfeedStore

/// The sealed store's typed methods that replaced string keys and column dictionaries.
struct StoreTypedAccessTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theAccountIsRememberedTyped() async throws {
        let database = try AppDatabase.inMemory()
        #expect(try await database.account() == nil)
        try await database.saveAccount(Account(userID: UserID(42), username: "me", accessToken: "token-a"))
        #expect(try await database.account() == Account(userID: UserID(42), username: "me", accessToken: "token-a"))
        // A user id alone keeps what else was remembered.
        try await database.saveAccount(Account(userID: UserID(43)))
        #expect(try await database.account() == Account(userID: UserID(43), username: "me", accessToken: "token-a"))
    }

    @Test func outboxTransitionsSetTypedFields() async throws {
        let database = try AppDatabase.inMemory()
        let item = try await database.enqueue(text: "hello", replyTo: TweetID(7), now: now)
        let sending = try #require(try await database.transitionOutbox(
            item.id, from: [.pending], to: .sending, changes: [.attempts(1), .lastAttemptAt(now)]))
        #expect(sending.state == .sending)
        #expect(sending.attempts == 1)
        // Not in `from`: nothing changes.
        #expect(try await database.transitionOutbox(item.id, from: [.pending], to: .cancelled) == nil)
        let retry = now.addingTimeInterval(60)
        let waiting = try #require(try await database.transitionOutbox(
            item.id, from: [.sending], to: .pending, changes: [.nextAttemptAt(retry), .lastError(OutboxFailure(kind: .attempt, message: "timeout"))]))
        #expect(waiting.nextAttemptAt == retry)
        #expect(waiting.lastError == OutboxFailure(kind: .attempt, message: "timeout"))
        _ = try await database.transitionOutbox(item.id, from: [.pending], to: .sending)
        let sent = try #require(try await database.transitionOutbox(
            item.id, from: [.sending], to: .sent, changes: [.sentTweetID(TweetID(99)), .sentAt(now), .lastError(nil), .nextAttemptAt(nil)]))
        #expect(sent.state == .sent)
        #expect(sent.sentTweetID == TweetID(99))
        #expect(sent.sentAt == now)
        #expect(sent.lastError == nil)
        #expect(sent.nextAttemptAt == nil)
        #expect(sent.replyToID == TweetID(7))
    }

    @Test func authorChangesAreDeliveredUntilCancelled() async throws {
        let database = try AppDatabase.inMemory()
        let calls = Mutex(0)
        let observation = database.observeAuthorChanges { calls.withLock { $0 += 1 } }
        let author = Author(id: UserID(1), username: "a", name: "A")
        let page = TimelinePage(
            tweets: [Tweet(id: TweetID(5), authorID: author.id, createdAt: now, text: "t")], authors: [author], nextPageToken: nil)
        try await database.storePage(page, feed: .home, state: SyncState(feed: .home), now: now)
        #expect(calls.withLock { $0 } == 1)
        // A commit that leaves the authors alone is not an author change.
        _ = try await database.enqueue(text: "x", replyTo: nil, now: now)
        #expect(calls.withLock { $0 } == 1)
        observation.cancel()
        try await database.storePage(page, feed: .mentions, state: SyncState(feed: .mentions), now: now)
        #expect(calls.withLock { $0 } == 1)
    }
}
