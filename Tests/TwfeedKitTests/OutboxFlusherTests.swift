import Foundation
import Logging
import Testing
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

struct OutboxFlusherTests {
    let fixture: SyncFixture
    let flusher: OutboxFlusher
    let doorbell = Doorbell()

    init() throws {
        fixture = try SyncFixture()
        flusher = OutboxFlusher(
            api: fixture.api, database: fixture.database, clock: fixture.clock, doorbell: doorbell,
            flushInterval: 60, maxAgeHours: 24, logger: fixture.logger)
    }

    func enqueue(_ text: String, replyTo: TweetID? = nil, ageHours: Double = 0) async throws -> Int64 {
        try await fixture.database.enqueue(text: text, replyTo: replyTo, now: fixture.clock.now().addingTimeInterval(-ageHours * 3600)).id
    }

    func item(_ id: Int64) async throws -> OutboxItem { try #require(try await fixture.database.outboxItem(id)) }

    @Test func sentStatusesGoOutOldestFirstWithTheirTweetID() async throws {
        try await fixture.database.saveAccount(Account(userID: UserID(42)))
        let first = try await enqueue("first")
        let second = try await enqueue("a reply", replyTo: TweetID(77))
        _ = try await flusher.flush()
        #expect(fixture.api.posted == ["first", "a reply"])
        #expect(try await item(first).state == .sent)
        #expect(try await item(first).sentTweetID != nil)
        #expect(try await item(second).attempts == 1)
        #expect(fixture.api.state.withLock { $0.posted[1].replyTo } == TweetID(77))
        // Stored as ours.
        let own = try fixture.database.inspect { try Int.fetchOne($0, sql: "SELECT count(*) FROM tweet WHERE authorId = 42") }
        #expect(own == 2)
        #expect(fixture.sink.events("outbox.sent").count == 2)
    }

    @Test func serverErrorsBackOffFrom30SecondsDoublingToAnHour() async throws {
        let id = try await enqueue("patience")
        var delays: [Double] = []
        for _ in 0 ..< 9 {
            fixture.api.failNextPost(APIError(kind: .transient, status: 503, message: "Service Unavailable"))
            let now = fixture.clock.now()
            guard case .until(let next) = try await flusher.flush() else { Issue.record("no pause"); return }
            delays.append(next.timeIntervalSince(now))
            fixture.clock.advance(to: next)
        }
        #expect(delays[0] >= 30 && delays[0] <= 36)
        #expect(delays[1] >= 60 && delays[1] <= 72)
        #expect(delays[8] == 3600)
        #expect(try await item(id).lastError?.status == 503)
        #expect(try await item(id).lastError?.description.contains("503") == true)
        _ = try await flusher.flush()
        #expect(try await item(id).state == .sent)
    }

    @Test func aRateLimitWaitsForTheReset() async throws {
        let id = try await enqueue("later")
        let reset = fixture.clock.now().addingTimeInterval(500)
        fixture.api.failNextPost(APIError(kind: .rateLimited, status: 429, message: "Too Many Requests",
                                          rateLimit: RateLimit(limit: 100, remaining: 0, resetAt: reset)))
        #expect(try await flusher.flush() == .until(reset))
        fixture.clock.advance(to: reset.addingTimeInterval(-1))
        #expect(try await flusher.flush() == .until(reset))
        #expect(fixture.api.posted.isEmpty)
        fixture.clock.advance(to: reset)
        _ = try await flusher.flush()
        #expect(try await item(id).state == .sent)
    }

    @Test func otherClientErrorsFailWithTheAPIsReasonAndTheQueueMovesOn() async throws {
        let bad = try await enqueue("reply to a ghost", replyTo: TweetID(5))
        let good = try await enqueue("fine")
        fixture.api.failNextPost(APIError(kind: .rejected, status: 403, code: 385, message: "You attempted to reply to a Tweet that is deleted or not visible to you."))
        _ = try await flusher.flush()
        #expect(try await item(bad).state == .failed)
        #expect(try await item(bad).lastError == OutboxFailure(kind: .attempt, status: 403, code: 385, message: "You attempted to reply to a Tweet that is deleted or not visible to you."))
        #expect(try await item(good).state == .sent)
    }

    @Test func unauthorizedStopsFlushingAndKeepsTheQueue() async throws {
        let id = try await enqueue("keep me")
        _ = try await enqueue("and me")
        fixture.api.failNextPost(APIError(kind: .unauthorized, status: 401, code: 89, message: "Invalid or expired token."))
        #expect(try await flusher.flush() == .unauthorized)
        #expect(try await item(id).state == .pending)
        #expect(try await item(id).attempts == 0)
        #expect(fixture.api.posted.isEmpty)
        #expect(fixture.sink.events("auth.failed").count == 1)
    }

    @Test func anOldStatusExpiresAndNeverReachesTheAPI() async throws {
        let old = try await enqueue("three months late", ageHours: 25)
        let fresh = try await enqueue("on time", ageHours: 23)
        _ = try await flusher.flush()
        #expect(try await item(old).state == .expired)
        #expect(try await item(fresh).state == .sent)
        #expect(fixture.api.posted == ["on time"])
        let line = try #require(fixture.sink.events("outbox.expired").first)
        #expect(line.contains("level=warn"))
        #expect(line.contains("age_h=25.0"))
    }

    @Test func maxAgeZeroNeverExpires() async throws {
        let patient = OutboxFlusher(api: fixture.api, database: fixture.database, clock: fixture.clock, doorbell: doorbell,
                                    flushInterval: 60, maxAgeHours: 0, logger: fixture.logger)
        let id = try await enqueue("a year later", ageHours: 24 * 365)
        _ = try await patient.flush()
        #expect(try await item(id).state == .sent)
    }

    @Test func retryRequeuesWithAFreshAgeAndCancelWithdraws() async throws {
        let old = try await enqueue("old", ageHours: 30)
        _ = try await flusher.flush()
        #expect(try await item(old).state == .expired)
        let retried = try await fixture.database.retryOutbox(old, now: fixture.clock.now())
        #expect(retried.state == .pending)
        #expect(retried.queuedAt == fixture.clock.now())
        let withdrawn = try await enqueue("never mind")
        #expect(try await fixture.database.cancelOutbox(withdrawn).state == .cancelled)
        _ = try await flusher.flush()
        #expect(fixture.api.posted == ["old"])
        #expect(try await item(withdrawn).state == .cancelled)
        await #expect(throws: TwfeedError.self) { try await fixture.database.cancelOutbox(old) }
        await #expect(throws: TwfeedError(.invalidData, "outbox: no status #999")) { try await fixture.database.retryOutbox(999, now: Date()) }
    }

    @Test func aRingWakesTheFlusherBeforeItsTimer() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await flusher.run() }
            await fixture.clock.waitForSleepers()
            _ = try await enqueue("now please")
            doorbell.ring()
            // No time passes on the clock: only the ring can have sent it.
            while fixture.api.posted.isEmpty { await Task.yield() }
            #expect(fixture.api.posted == ["now please"])
            group.cancelAll()
        }
    }
}
