import Foundation
import Logging
import Testing
import TwfeedBilling
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore

/// The account's id, name and picture: asked once, stored, and asked again once a UTC
/// day through the billing gate; a refresh that cannot be made leaves the stored id
/// serving, without a request per poll.
struct AccountResolverTests {
    static let evening = Date(timeIntervalSince1970: 1_796_079_600)  // 2026-11-30T23:00:00Z

    struct Fixture {
        let clock = ManualClock(now: AccountResolverTests.evening)
        let api: FakeTimelineAPI
        let database: AppDatabase
        let sink = MemorySink()
        let gate: BillingGate
        let resolver: AccountResolver

        init() throws {
            api = FakeTimelineAPI(clock: clock)
            database = try AppDatabase.inMemory()
            let logger = Logger(label: "account") { [sink] _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
            gate = BillingGate(database: database, config: TwfeedConfig.API(), clock: clock, logger: logger, readers: [.home])
            resolver = AccountResolver(api: api, database: database, accessToken: "token", logger: logger, clock: clock, gate: gate)
        }

        var meCalls: Int { api.state.withLock { $0.meCalls } }
    }

    @Test func theAccountIsAskedOnceADayAndAFailedRefreshWaits() async throws {
        let fixture = try Fixture()
        let id = try await fixture.resolver.userID()
        #expect(fixture.meCalls == 1)
        fixture.clock.advance(by: 1800)
        #expect(try await fixture.resolver.userID() == id)
        #expect(fixture.meCalls == 1, "not twice the same UTC day")

        // Past midnight, the refresh fails: the stored id serves, and the next try waits.
        fixture.clock.advance(by: 3600)
        fixture.api.state.withLock { $0.meFailures = [APIError(kind: .transient, status: 503, message: "Over capacity")] }
        #expect(try await fixture.resolver.userID() == id)
        #expect(fixture.meCalls == 2)
        #expect(fixture.sink.events("account.refresh_failed").count == 1)
        fixture.clock.advance(by: 60)
        #expect(try await fixture.resolver.userID() == id)
        #expect(fixture.meCalls == 2, "no request per poll while it waits")
        fixture.clock.advance(by: AccountResolver.retryAfterFailure)
        #expect(try await fixture.resolver.userID() == id)
        #expect(fixture.meCalls == 3)
        #expect(try await fixture.database.account()?.refreshedAt == fixture.clock.now())
        let rows = try await fixture.database.spend(since: "2000-01-01").filter { $0.source == .account }
        #expect(rows.map(\.day).sorted() == ["2026-11-30", "2026-12-01"], "one user read charged each day")
    }

    @Test func aRefreshRefusedForMoneyIsTheBillingStateAndTheStoredIdServes() async throws {
        let fixture = try Fixture()
        let id = try await fixture.resolver.userID()
        fixture.clock.advance(by: 7200)
        let body = Array(#"{"errors":[{"code":402,"message":"no credits"}]}"#.utf8)
        fixture.api.state.withLock {
            $0.meFailures = [APIError(kind: .rejected, status: 402, message: "no credits",
                                      refusal: BillingRefusal.classify(status: 402, body: body))]
        }
        #expect(try await fixture.resolver.userID() == id)
        #expect(try await fixture.gate.current().state == .outOfCredits)
        #expect(fixture.sink.events("billing.state").count == 1)
        #expect(fixture.sink.events("account.refresh_failed").isEmpty, "a billing refusal is the state, not a failure")
        // Held until the probe: no request before it.
        fixture.clock.advance(by: 60)
        #expect(try await fixture.resolver.userID() == id)
        #expect(fixture.meCalls == 2)
    }
}
