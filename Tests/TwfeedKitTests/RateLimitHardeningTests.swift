import Foundation
import Logging
import Testing
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

/// Hostile 429s and headers: never a tight loop, never a trap, never a wait of years.
struct RateLimitHardeningTests {
    static func tooMany(_ rateLimit: RateLimit? = nil) -> APIError {
        APIError(kind: .rateLimited, status: 429, message: "Too Many Requests", rateLimit: rateLimit)
    }

    @Test(arguments: ["inf", "-inf", "nan", "1e400", "-5", "99999999999999999999", "12abc", "", " ", "0x10"])
    func anAbsurdResetHeaderIsMissingNotInfinity(_ reset: String) {
        let headers = ["x-rate-limit-limit": "180", "x-rate-limit-remaining": "0", "x-rate-limit-reset": reset]
        #expect(RateLimit(headers: headers) == nil)
    }

    @Test(arguments: ["-1", "99999999999999999999", "1000001", "1e3", "nan"])
    func anAbsurdCountHeaderIsMissing(_ count: String) {
        #expect(RateLimit(headers: ["x-rate-limit-limit": count, "x-rate-limit-remaining": "0", "x-rate-limit-reset": "1700000000"]) == nil)
        #expect(RateLimit(headers: ["x-rate-limit-limit": "180", "x-rate-limit-remaining": count, "x-rate-limit-reset": "1700000000"]) == nil)
    }

    @Test func sensibleHeadersAndTheServerDateAreRead() async throws {
        let limit = try #require(RateLimit(headers: [
            "x-rate-limit-limit": "180", "x-rate-limit-remaining": "7", "x-rate-limit-reset": "1700000300",
            "date": "Tue, 14 Nov 2023 22:13:20 GMT",
        ]))
        #expect(limit.limit == 180 && limit.remaining == 7)
        #expect(limit.resetAt == Date(timeIntervalSince1970: 1_700_000_300))
        #expect(limit.serverDate == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(HTTPDate.parse("yesterday") == nil)
    }

    @Test func a429WithoutHeadersWaitsAFloorThatDoublesToTheWindow() async throws {
        let fixture = try SyncFixture()
        fixture.api.add(5, to: .home)
        var waits: [Double] = []
        for _ in 0 ..< 6 {
            fixture.api.failNext(Self.tooMany())
            let now = fixture.clock.now()
            let outcome = try await fixture.syncer(interval: 30).poll()
            let next = outcome.nextPollAt
            waits.append(next.timeIntervalSince(now))
            fixture.clock.advance(to: next)
        }
        #expect(waits == [60, 120, 240, 480, 900, 900])
        #expect(try await fixture.syncer(interval: 30).poll().complete)
        #expect(try await fixture.database.syncState(.home).failures == 0)
    }

    @Test func a429WithAResetInThePastIsNotATightLoop() async throws {
        let fixture = try SyncFixture()
        let now = fixture.clock.now()
        fixture.api.failNext(Self.tooMany(RateLimit(limit: 180, remaining: 0, resetAt: now.addingTimeInterval(-5))))
        let outcome = try await fixture.syncer().poll()
        #expect(outcome.nextPollAt == now.addingTimeInterval(60))
        #expect(try await fixture.database.syncState(.home).nextPollAt == now.addingTimeInterval(60))
    }

    @Test func a429WithAnAbsurdResetWaitsTheFloorNotYears() async throws {
        let fixture = try SyncFixture()
        let now = fixture.clock.now()
        fixture.api.failNext(Self.tooMany(RateLimit(limit: 180, remaining: 0, resetAt: now.addingTimeInterval(10 * 365 * 86_400))))
        let outcome = try await fixture.syncer().poll()
        #expect(outcome.nextPollAt == now.addingTimeInterval(60))
    }

    @Test func theResetIsMeasuredAgainstTheServersDate() async throws {
        let fixture = try SyncFixture()
        let now = fixture.clock.now()
        // The local clock is an hour ahead of the server's: the reset looks past locally.
        let serverNow = now.addingTimeInterval(-3600)
        fixture.api.failNext(Self.tooMany(RateLimit(limit: 180, remaining: 0, resetAt: serverNow.addingTimeInterval(300), serverDate: serverNow)))
        let outcome = try await fixture.syncer().poll()
        #expect(outcome.nextPollAt == now.addingTimeInterval(300))
    }

    @Test func aBadScheduleStoredByAnOlderVersionIsRepairedAtStart() async throws {
        let fixture = try SyncFixture()
        fixture.api.add(3, to: .home)
        var state = SyncState(feed: .home)
        state.nextPollAt = Date(timeIntervalSince1970: .infinity)
        state.rateLimit = RateLimit(limit: 180, remaining: 0, resetAt: Date(timeIntervalSince1970: 1e300))
        try await fixture.database.saveSyncState(state)
        let poller = FeedPoller(syncer: fixture.syncer(), database: fixture.database, clock: fixture.clock, logger: fixture.logger)
        await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await poller.run() }
            await fixture.clock.waitForSleepers()
            group.cancelAll()
        }
        #expect(fixture.api.requestCount == 1)
        #expect(try await fixture.database.memberIDs(.home).count == 3)
        #expect(fixture.sink.events("sync.repaired").count == 1)
        #expect(try await fixture.database.repairSyncState(.home, now: fixture.clock.now(), maxWait: 86_400).isEmpty)
    }

    @Test func theRealClockSleepsTowardsAnInfiniteDeadlineWithoutTrapping() async {
        let task = Task { try await SystemClock().sleep(until: Date(timeIntervalSince1970: .infinity)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}

struct OutboxRateLimitTests {
    @Test func aPostsHeaderless429WaitsAFloorThatDoubles() async throws {
        let fixture = try SyncFixture()
        let flusher = OutboxFlusher(api: fixture.api, database: fixture.database, clock: fixture.clock, doorbell: Doorbell(),
                                    flushInterval: 60, maxAgeHours: 24, logger: fixture.logger)
        let id = try await fixture.database.enqueue(text: "gm", replyTo: nil, now: fixture.clock.now()).id
        var waits: [Double] = []
        for reset in [nil, fixture.clock.now().addingTimeInterval(-30)] as [Date?] {
            let now = fixture.clock.now()
            fixture.api.failNextPost(RateLimitHardeningTests.tooMany(reset.map { RateLimit(limit: 100, remaining: 0, resetAt: $0) }))
            guard case .until(let wake) = try await flusher.flush() else { Issue.record("not paused"); return }
            waits.append(wake.timeIntervalSince(now))
            fixture.clock.advance(to: wake)
        }
        #expect(waits == [60, 120])
        _ = try await flusher.flush()
        #expect(try await fixture.database.outboxItem(id)?.state == .sent)
    }

    /// v1.1 says "over daily status update limit" as a 403 with code 185: a limit that
    /// resets, so the status waits for the window's reset and is then sent, not failed.
    @Test func v11sPostingLimitWaitsForItsResetAndIsNotAFailure() async throws {
        let fixture = try SyncFixture()
        let flusher = OutboxFlusher(api: fixture.api, database: fixture.database, clock: fixture.clock, doorbell: Doorbell(),
                                    flushInterval: 60, maxAgeHours: 24, logger: fixture.logger)
        let id = try await fixture.database.enqueue(text: "gm", replyTo: nil, now: fixture.clock.now()).id
        let now = fixture.clock.now()
        let reset = Int(now.addingTimeInterval(3_600).timeIntervalSince1970)
        let answer = APIError.from(APIResponse(
            status: 403,
            headers: ["x-rate-limit-limit": "300", "x-rate-limit-remaining": "0", "x-rate-limit-reset": "\(reset)"],
            body: Array(#"{"errors":[{"code":185,"message":"User is over daily status update limit."}]}"#.utf8)))
        #expect(answer.kind == .rateLimited && answer.code == 185 && answer.refusal == nil)
        fixture.api.failNextPost(answer)
        guard case .until(let wake) = try await flusher.flush() else { Issue.record("not paused"); return }
        #expect(wake == Date(timeIntervalSince1970: Double(reset)))
        #expect(try await fixture.database.outboxItem(id)?.state == .pending)
        fixture.clock.advance(to: wake)
        _ = try await flusher.flush()
        #expect(try await fixture.database.outboxItem(id)?.state == .sent)
        #expect(fixture.api.posted.count == 1)
    }

    /// Any other 403 on a post is the API's refusal of that status: it fails.
    @Test func anotherForbiddenPostFails() {
        let answer = APIError.from(APIResponse(
            status: 403, body: Array(#"{"errors":[{"code":186,"message":"Status is over 280 characters."}]}"#.utf8)))
        #expect(answer.kind == .rejected)
    }
}
