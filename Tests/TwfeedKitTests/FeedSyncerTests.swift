import Foundation
import Logging
import ServiceLifecycle
import Testing
@testable import TwfeedKit

struct FeedSyncerTests {
    @Test func firstRunPagesBackThroughTheWholeRange() async throws {
        let fixture = try SyncFixture()
        let ids = fixture.api.add(250, to: .home)
        let outcome = try await fixture.syncer().poll()
        #expect(outcome.newTweets == 250)
        #expect(outcome.requests == 3)
        #expect(outcome.complete)
        #expect(try await fixture.database.memberIDs(.home) == ids.sorted(by: >))
        let state = try await fixture.database.syncState(.home)
        #expect(state.newestID == ids.max())
        #expect(state.pendingTop == nil && state.pendingBottom == nil)
    }

    @Test func nothingNewCostsExactlyOneRequest() async throws {
        let fixture = try SyncFixture()
        fixture.api.add(30, to: .home)
        let syncer = fixture.syncer()
        try await syncer.poll()
        let before = fixture.api.requestCount
        let outcome = try await syncer.poll()
        #expect(fixture.api.requestCount - before == 1)
        #expect(outcome.newTweets == 0)
    }

    @Test func laterPollsAskOnlyForNewerTweets() async throws {
        let fixture = try SyncFixture()
        let first = fixture.api.add(10, to: .home)
        let syncer = fixture.syncer()
        try await syncer.poll()
        let second = fixture.api.add(5, to: .home)
        let outcome = try await syncer.poll()
        #expect(outcome.newTweets == 5)
        #expect(fixture.api.queries.last?.sinceID == first.max())
        #expect(try await fixture.database.memberIDs(.home).count == 15)
        #expect(try await fixture.database.syncState(.home).newestID == second.max())
    }

    @Test func aFailureMidRangeResumesBelowTheLastCommittedPage() async throws {
        let fixture = try SyncFixture()
        let ids = fixture.api.add(250, to: .home)
        fixture.api.fail(onRequest: 2, APIError(kind: .transient, status: 503, message: "Service Unavailable"))
        let syncer = fixture.syncer()
        let broken = try await syncer.poll()
        #expect(!broken.complete)
        var state = try await fixture.database.syncState(.home)
        // The stored position has not moved: the range is not whole yet.
        #expect(state.newestID == nil)
        #expect(state.pendingTop == ids.max())
        #expect(state.pendingBottom == ids.sorted(by: >)[99])
        #expect(state.lastError == PollFailure(kind: .transient, status: 503, message: "Service Unavailable"))
        #expect(broken.error?.status == 503)
        // The poller sleeps until the time stored for `status` (to the store's precision).
        #expect(abs(broken.nextPollAt.timeIntervalSince(try #require(state.nextPollAt))) < 0.001)
        #expect(try await fixture.database.memberIDs(.home).count == 100)

        // New tweets arrive meanwhile; nothing may fall into a gap.
        let newer = fixture.api.add(7, to: .home)
        fixture.clock.advance(to: state.nextPollAt!)
        let resumed = try await syncer.poll()
        #expect(resumed.complete)
        #expect(fixture.api.queries[2].untilID == ids.sorted(by: >)[99])
        state = try await fixture.database.syncState(.home)
        #expect(state.newestID == ids.max())
        try await syncer.poll()
        #expect(try await fixture.database.memberIDs(.home) == (ids + newer).sorted(by: >))
        #expect(try await fixture.database.syncState(.home).newestID == newer.max())
    }

    @Test func reFetchedTweetsUpdateTheirRowAndAreNeverDuplicated() async throws {
        let fixture = try SyncFixture()
        let ids = fixture.api.add(20, to: .home)
        fixture.api.add(0, to: .mentions)
        try await fixture.syncer().poll()
        // Same tweets through another feed: one row, two tags.
        fixture.api.state.withLock { $0.tweets[.mentions] = Array(ids.prefix(5)) }
        try await fixture.syncer(.mentions).poll()
        let tweetRows = try fixture.database.inspect { try Int.fetchOne($0, sql: "SELECT count(*) FROM tweet") }
        #expect(tweetRows == 20)
        let item = try #require(try await fixture.database.feedItems(.mentions, limit: 1).first)
        #expect(item.feeds == [.home, .mentions])
    }

    @Test func theRateLimitIsNeverExceededAndTheNextRequestFollowsTheReset() async throws {
        let fixture = try SyncFixture()
        fixture.api.setLimit(3, window: 900)
        fixture.api.add(1000, to: .home)
        let syncer = fixture.syncer()
        let poller = FeedPoller(syncer: syncer, database: fixture.database, clock: fixture.clock, logger: fixture.logger)
        let start = fixture.clock.now()
        await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await poller.run() }
            await fixture.clock.waitForSleepers()
            // Three requests, then the poller waits for the reset instead of a fourth.
            #expect(fixture.api.requestCount == 3)
            let reset = start.addingTimeInterval(900)
            #expect(fixture.clock.nextDeadline == reset)
            fixture.clock.advance(to: reset.addingTimeInterval(-1))
            #expect(fixture.api.requestCount == 3)
            fixture.clock.advance(to: reset)
            await fixture.clock.waitForSleepers()
            #expect(fixture.api.requestCount == 6)
            group.cancelAll()
        }
        #expect(try await fixture.database.memberIDs(.home).count == 600)
        #expect(fixture.sink.events("poll.rate_limited").isEmpty)
    }

    @Test func a429WaitsUntilTheResetTime() async throws {
        let fixture = try SyncFixture()
        fixture.api.add(5, to: .home)
        let reset = fixture.clock.now().addingTimeInterval(321)
        fixture.api.failNext(APIError(kind: .rateLimited, status: 429, message: "Too Many Requests",
                                      rateLimit: RateLimit(limit: 180, remaining: 0, resetAt: reset)))
        let outcome = try await fixture.syncer().poll()
        #expect(outcome.error?.status == 429)
        let state = try await fixture.database.syncState(.home)
        #expect(state.nextPollAt == reset)
        #expect(outcome.nextPollAt == reset)  // the outcome carries the schedule the poller follows
        #expect(state.rateLimit?.remaining == 0)
        #expect(fixture.sink.events("poll.rate_limited").count == 1)
        // Polling early does not send a request.
        let early = try await fixture.syncer().poll()
        #expect(early.requests == 0)
        #expect(early.nextPollAt == reset)
        #expect(fixture.api.requestCount == 1)
    }

    @Test func transientFailuresBackOffExponentially() async throws {
        let fixture = try SyncFixture()
        let syncer = fixture.syncer()
        var delays: [Double] = []
        for _ in 0 ..< 4 {
            fixture.api.failNext(APIError(kind: .transient, status: 500, message: "Internal Server Error"))
            let now = fixture.clock.now()
            try await syncer.poll()
            let next = try #require(try await fixture.database.syncState(.home).nextPollAt)
            delays.append(next.timeIntervalSince(now))
            fixture.clock.advance(to: next)
        }
        #expect(delays[0] >= 7.5 && delays[0] <= 15)
        #expect(delays[1] >= 15 && delays[1] <= 30)
        #expect(delays[3] >= 60 && delays[3] <= 120)
        #expect(try await fixture.database.syncState(.home).failures == 4)
        #expect(Backoff.transient.delay(afterFailures: 50, random: 1) == 900)
    }

    /// The outbox's configuration of the same type: 30 s doubling to an hour, plus up to
    /// a fifth as jitter, never above the hour.
    @Test func theOutboxBackoffAddsUpToAFifthAndKeepsItsCap() {
        let outbox = OutboxFlusher.retry
        #expect(outbox.delay(afterFailures: 1, random: 0) == 30)
        #expect(outbox.delay(afterFailures: 1, random: 1) == 36)
        #expect(outbox.delay(afterFailures: 3, random: 0.5) == 132)
        #expect(outbox.delay(afterFailures: 8, random: 1) == 3600)
        #expect(outbox.delay(afterFailures: 50, random: 0) == 3600)
        #expect(Backoff.unauthorized.delay(afterFailures: 1, random: 0) == 450)
        #expect(Backoff.unauthorized.delay(afterFailures: 9, random: 1) == 3600)
    }

    @Test func unauthorizedIsLoggedAsAnAuthProblemAndBacksOffLong() async throws {
        let fixture = try SyncFixture()
        fixture.api.failNext(APIError(kind: .unauthorized, status: 401, code: 89, message: "Invalid or expired token."))
        let now = fixture.clock.now()
        try await fixture.syncer().poll()
        let state = try await fixture.database.syncState(.home)
        #expect(state.nextPollAt!.timeIntervalSince(now) >= 450)
        let line = try #require(fixture.sink.events("auth.failed").first)
        #expect(line.contains("level=error"))
        #expect(line.contains("status=401"))
    }

    @Test func aWalkWithoutSinceIDStopsAtTheFirstPageWithNothingNew() async throws {
        let fixture = try SyncFixture(sinceIDSupported: false)
        let ids = fixture.api.add(250, to: .retweets)
        let syncer = fixture.syncer(.retweets)
        // Each retweets poll also reads the own originals' newest page: one request more.
        let first = try await syncer.poll()
        #expect(first.requests == 4)
        #expect(try await fixture.database.memberIDs(.retweets).count == 250)
        let second = try await syncer.poll()
        #expect(second.requests == 2)
        #expect(try await fixture.database.syncState(.retweets).newestID == ids.max())
    }

    @Test func anInterruptedWalkIsCompletedLater() async throws {
        let fixture = try SyncFixture(sinceIDSupported: false)
        fixture.api.add(350, to: .retweets)
        fixture.api.fail(onRequest: 3, APIError(kind: .transient, status: 503, message: "Service Unavailable"))
        let syncer = fixture.syncer(.retweets)
        try await syncer.poll()
        #expect(try await fixture.database.memberIDs(.retweets).count == 200)
        fixture.clock.advance(by: 3600)
        let resumed = try await syncer.poll()
        #expect(resumed.complete)
        // Re-walks the two known pages, then fetches the rest instead of stopping.
        #expect(try await fixture.database.memberIDs(.retweets).count == 350)
        #expect(try await fixture.database.syncState(.retweets).pendingTop == nil)
    }

    @Test func theAccountIDIsAskedForOnce() async throws {
        let fixture = try SyncFixture()
        let syncer = fixture.syncer()
        try await syncer.poll()
        try await fixture.syncer().poll()
        #expect(fixture.api.state.withLock { $0.meCalls } == 1)
    }
}

import GRDB
@testable import TwfeedCore
