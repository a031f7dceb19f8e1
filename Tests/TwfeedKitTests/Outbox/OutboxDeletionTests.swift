import Foundation
import Logging
import Testing
import TwfeedBilling
import TwfeedTesting
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

/// Deletions go through the outbox exactly once: sent, the stored post marked deleted
/// and the deletion charged once; a lost answer settled by looking the post up; a 402
/// holds the queue.
struct OutboxDeletionTests {
    let fixture: SyncFixture
    let flusher: OutboxFlusher
    let target = TweetID(1_880_000_000_000_000_123)

    init() async throws {
        fixture = try SyncFixture()
        let own = Tweet(id: target, authorID: FakeTimelineAPI.me.id, createdAt: fixture.clock.now(), text: "regrettable")
        try await fixture.database.storeOwnTweet(own, now: fixture.clock.now())
        fixture.api.state.withLock {
            $0.ownTweets.append(own)
            $0.lookupTweets[own.id] = own
        }
        flusher = try await fixture.outboxFlusher()
    }

    func item(_ id: Int64) async throws -> OutboxItem { try #require(try await fixture.database.outboxItem(id)) }

    func deletedAt() throws -> Double? {
        try fixture.database.inspect { try Double.fetchOne($0, sql: "SELECT deletedAt FROM tweet WHERE id = ?", arguments: [target.rawValue]) }
    }

    func charged() throws -> Int {
        try fixture.database.inspect {
            try Int.fetchOne($0, sql: "SELECT coalesce(sum(resources), 0) FROM spend WHERE kind = 'post_delete' AND source = 'outbox'")
        } ?? 0
    }

    @Test func aDeletionIsSentOnceAndThePostShowsDeleted() async throws {
        let id = try await fixture.database.enqueueDeletion(of: target, now: fixture.clock.now()).id
        _ = try await flusher.flush()
        _ = try await flusher.flush()
        #expect(fixture.api.deletedTweets == [target])
        #expect(try await item(id).state == .sent)
        #expect(try deletedAt() != nil)
        #expect(try charged() == 1)
        #expect(fixture.sink.events("outbox.deleted").count == 1)
    }

    @Test func aLostAnswerIsSettledByLookingThePostUp() async throws {
        let id = try await fixture.database.enqueueDeletion(of: target, now: fixture.clock.now()).id
        fixture.api.state.withLock { $0.media.loseNextDelete = true }
        guard case .until(let settle) = try await flusher.flush() else { Issue.record("expected a wait"); return }
        #expect(try await item(id).state == .uncertain)
        #expect(try deletedAt() == nil)
        fixture.clock.advance(to: settle)
        _ = try await flusher.flush()
        #expect(fixture.api.state.withLock { $0.lookups } == [[target]])
        #expect(fixture.api.deletedTweets == [target], "deleted once, not again")
        #expect(try await item(id).state == .sent)
        #expect(try deletedAt() != nil)
        #expect(try charged() == 1)
        #expect(fixture.sink.events("outbox.settled").contains { $0.contains("outcome=deleted") })
    }

    @Test func aCrashMidDeletionIsSettledNotSentBlindly() async throws {
        let id = try await fixture.database.enqueueDeletion(of: target, now: fixture.clock.now()).id
        // Left `sending` by a kill after the API carried it out.
        try await fixture.api.deleteTweet(target)
        try await fixture.database.transitionOutbox(id, from: [.pending], to: .sending, changes: [.attempts(1), .lastAttemptAt(fixture.clock.now())])
        let restarted = try await fixture.outboxFlusher()
        try await restarted.recoverInterrupted()
        _ = try await restarted.flush()
        #expect(try await item(id).state == .sent)
        #expect(fixture.api.deletedTweets == [target])
    }

    @Test func aPostGoneAlreadyEndsTheDeletionAsSent() async throws {
        let id = try await fixture.database.enqueueDeletion(of: target, now: fixture.clock.now()).id
        fixture.api.state.withLock {
            $0.ownTweets.removeAll()
            $0.lookupTweets = [:]
        }
        _ = try await flusher.flush()
        #expect(try await item(id).state == .sent)
        #expect(try deletedAt() != nil)
        #expect(try charged() == 0, "a 404 deleted nothing and cost nothing")
    }

    @Test func aDeletedFalseAnswerForAPostStillThereFailsWithTheReason() async throws {
        let id = try await fixture.database.enqueueDeletion(of: target, now: fixture.clock.now()).id
        fixture.api.state.withLock { $0.media.deleteFailures = [APIError.notDeleted(target, status: 200, rateLimit: nil)] }
        _ = try await flusher.flush()
        let failed = try await item(id)
        #expect(failed.state == .failed)
        #expect(failed.lastError?.description.contains("\"deleted\": false") == true)
        #expect(try deletedAt() == nil)
    }

    @Test func aPaymentRequiredHoldsTheDeletionWithNothingFailed() async throws {
        let gate = BillingGate(database: fixture.database, config: TwfeedConfig.API(), clock: fixture.clock, logger: fixture.logger)
        let held = try await fixture.outboxFlusher(gate: gate)
        let id = try await fixture.database.enqueueDeletion(of: target, now: fixture.clock.now()).id
        let refusal = APIError(kind: .rejected, status: 402, message: "Payment Required", refusal: BillingRefusal.classify(status: 402, body: []))
        fixture.api.state.withLock { $0.media.deleteFailures = [refusal] }
        guard case .until(let until) = try await held.flush() else { Issue.record("no hold"); return }
        #expect(try await item(id).state == .pending)
        #expect(try await item(id).attempts == 0)
        fixture.clock.advance(by: 60)
        _ = try await held.flush()
        #expect(fixture.api.deletedTweets.isEmpty, "not asked again before the probe")
        fixture.clock.advance(to: until)
        _ = try await held.flush()
        #expect(fixture.api.deletedTweets == [target])
        #expect(try await item(id).state == .sent)
    }

    @Test func theQueueIsPricedDeletionsAtPostDeleteAndPhotosAtTheirUploads() async throws {
        let deletion = try await fixture.database.enqueueDeletion(of: target, now: fixture.clock.now())
        let photo = PhotoDraft(fileName: "a.png", type: .png, bytes: Data([1, 2, 3]), alt: nil)
        let post = try await fixture.database.enqueue(StatusDraft(text: "two", photos: [photo, photo]), now: fixture.clock.now())
        var prices = Prices.published
        prices.mediaUpload = MicroUSD(micros: 1_000)
        let terms = BillingTerms(prices: prices)
        #expect(try await terms.price(ofQueued: deletion, database: fixture.database) == MicroUSD(micros: 10_000))
        #expect(try await terms.price(ofQueued: post, database: fixture.database) == MicroUSD(micros: 17_000))
    }
}
