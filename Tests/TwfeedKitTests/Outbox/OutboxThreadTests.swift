import Foundation
import Logging
import Testing
import TwfeedTesting
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

/// Threads and a time to send: part N+1 goes out only after part N, as a reply to it; a
/// part whose parent failed is blocked until `outbox retry`; a status with `--at` is
/// never sent before its time, and its expiry counts from it.
struct OutboxThreadTests {
    let fixture: SyncFixture
    let flusher: OutboxFlusher

    init() async throws {
        fixture = try SyncFixture()
        flusher = try await fixture.outboxFlusher()
    }

    func thread(_ count: Int) async throws -> [Int64] {
        try await fixture.database.enqueueThread((1 ... count).map { StatusDraft(text: "part \($0) of \(count)") }, now: fixture.clock.now())
            .map(\.id)
    }

    func item(_ id: Int64) async throws -> OutboxItem { try #require(try await fixture.database.outboxItem(id)) }

    @Test func eachPartGoesOutInOrderReplyingToTheOneBefore() async throws {
        let ids = try await thread(4)
        _ = try await flusher.flush()
        let posted = fixture.api.state.withLock { $0.posted }
        #expect(posted.map(\.text) == (1 ... 4).map { "part \($0) of 4" })
        var parent: TweetID?
        for (index, id) in ids.enumerated() {
            let sent = try await item(id)
            #expect(sent.state == .sent)
            #expect(posted[index].replyTo == parent, "part \(index + 1) replies to part \(index)")
            parent = sent.sentTweetID
        }
    }

    @Test func aPartWaitsWhileItsParentIsInDoubt() async throws {
        let ids = try await thread(2)
        fixture.api.state.withLock { $0.loseNextAnswer = true; $0.duplicateCheck = false }
        fixture.api.state.withLock { $0.ownTweetsLagging = 1 }
        guard case .until(let settle) = try await flusher.flush() else { Issue.record("expected a wait"); return }
        #expect(try await item(ids[0]).state == .uncertain)
        #expect(fixture.api.posted == ["part 1 of 2"], "part 2 does not pass its parent")
        fixture.clock.advance(to: settle)
        _ = try await flusher.flush()  // the own posts lag: part 1 looks absent, goes again
        for _ in 0 ..< 6 {
            guard case .until(let next) = try await flusher.flush() else { break }
            if try await item(ids[1]).state == .sent { break }
            fixture.clock.advance(to: next)
        }
        let parts = try await fixture.database.threadParts(ids[0])
        #expect(parts.allSatisfy { $0.state == .sent })
        #expect(fixture.api.state.withLock { $0.posted.last?.replyTo } == parts[0].sentTweetID)
    }

    @Test func aFailedParentBlocksTheRestUntilItIsRetried() async throws {
        let ids = try await thread(3)
        fixture.api.failNextPost(APIError(kind: .rejected, status: 400, message: "Invalid Request"))
        let other = try await fixture.database.enqueue(text: "not in the thread", replyTo: nil, now: fixture.clock.now()).id
        _ = try await flusher.flush()
        _ = try await flusher.flush()
        #expect(try await item(ids[0]).state == .failed)
        for id in ids.dropFirst() {
            let blocked = try await item(id)
            #expect(blocked.state == .blocked)
            #expect(blocked.lastError?.description.hasPrefix("blocked: part ") == true)
        }
        #expect(try await item(ids[1]).lastError?.description.contains("is failed: HTTP 400") == true)
        #expect(try await item(other).state == .sent, "the rest of the queue goes on")
        #expect(fixture.sink.events("outbox.blocked").count == 2)

        // A blocked part cannot go before its parent is retried.
        await #expect(throws: TwfeedError.self) { try await fixture.database.retryOutbox(ids[2], now: fixture.clock.now()) }
        _ = try await fixture.database.retryOutbox(ids[0], now: fixture.clock.now())
        #expect(try await item(ids[1]).state == .pending)
        #expect(try await item(ids[2]).state == .pending)
        _ = try await flusher.flush()
        #expect(fixture.api.posted == ["not in the thread", "part 1 of 3", "part 2 of 3", "part 3 of 3"])
        #expect(try await fixture.database.threadParts(ids[0]).allSatisfy { $0.state == .sent })
    }

    @Test func aBlockedPartItselfIsRetriedOnceItsParentIsOnItsWay() async throws {
        let ids = try await thread(2)
        #expect(try await fixture.database.cancelOutbox(ids[0]).state == .cancelled)
        _ = try await flusher.flush()
        #expect(try await item(ids[1]).state == .blocked)
        #expect(try await item(ids[1]).lastError?.description.contains("is cancelled") == true)
        await #expect(throws: TwfeedError.self) { try await fixture.database.retryOutbox(ids[1], now: fixture.clock.now()) }
        #expect(fixture.api.posted.isEmpty)
    }

    @Test func aTimeToSendIsNeverPassedEarlyAndTheExpiryCountsFromIt() async throws {
        let now = fixture.clock.now()
        let later = try await fixture.database.enqueue(StatusDraft(text: "in 90 s", notBefore: now.addingTimeInterval(90)), now: now).id
        // Queued 30 hours ago for an hour ago: 1 h old by the expiry's count, not 30.
        let long = try await fixture.database.enqueue(
            StatusDraft(text: "queued long ago", notBefore: now.addingTimeInterval(-3600)), now: now.addingTimeInterval(-30 * 3600)
        ).id
        let pause = try await flusher.flush()
        #expect(fixture.api.posted == ["queued long ago"])
        #expect(try await item(long).state == .sent)
        #expect(pause == .until(now.addingTimeInterval(60)), "the flush interval comes first")
        fixture.clock.advance(by: 60)
        #expect(try await flusher.flush() == .until(now.addingTimeInterval(90)), "it wakes at the time to send")
        fixture.clock.advance(by: 29.9)
        _ = try await flusher.flush()
        #expect(try await item(later).state == .pending)
        fixture.clock.advance(to: now.addingTimeInterval(90))
        _ = try await flusher.flush()
        #expect(try await item(later).state == .sent)
        #expect(fixture.api.posted == ["queued long ago", "in 90 s"])
    }

    /// A thread queued 30 hours ahead (the expiry is 24): each part's age counts from the
    /// time to send, so the later parts are not expired the moment the first goes out.
    @Test func aThreadQueuedFurtherAheadThanTheExpiryGoesOutWhole() async throws {
        let now = fixture.clock.now()
        let at = now.addingTimeInterval(30 * 3600)
        let ids = try await fixture.database.enqueueThread((1 ... 3).map { StatusDraft(text: "part \($0) of 3", notBefore: at) }, now: now)
            .map(\.id)
        _ = try await flusher.flush()
        #expect(fixture.api.posted.isEmpty)
        fixture.clock.advance(to: at)
        _ = try await flusher.flush()
        #expect(fixture.api.posted == (1 ... 3).map { "part \($0) of 3" })
        for id in ids { #expect(try await item(id).state == .sent) }
    }
}
