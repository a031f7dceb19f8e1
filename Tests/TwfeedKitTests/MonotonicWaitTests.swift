import Foundation
import Logging
import Testing
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore

/// Waits are spans of monotonic time: a step of the wall clock (NTP, a user) neither
/// cuts a pending wait short nor stretches it.
struct MonotonicWaitTests {
    func pollerRun(_ fixture: SyncFixture, interval: Double) -> FeedPoller {
        FeedPoller(syncer: fixture.syncer(.home, interval: interval), database: fixture.database,
                   clock: fixture.clock, logger: fixture.logger)
    }

    @Test(arguments: [7_200.0, -7_200.0])
    func aWallClockStepNeitherCutsShortNorStretchesThePollersWait(step: Double) async throws {
        let fixture = try SyncFixture()
        fixture.api.add(3, to: .home)
        let poller = pollerRun(fixture, interval: 60)
        await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await poller.run() }
            await fixture.clock.waitForSleepers(1)
            #expect(fixture.api.requestCount == 1)
            #expect(fixture.clock.nextWait == 60)
            fixture.clock.stepWallClock(by: step)
            #expect(fixture.clock.sleeperCount == 1, "the step must not wake the poller")
            fixture.clock.advance(by: 59)
            #expect(fixture.clock.sleeperCount == 1)
            #expect(fixture.api.requestCount == 1, "polled early after a \(step) s step")
            fixture.clock.advance(by: 1)
            while fixture.api.requestCount < 2 { await Task.yield() }
            await fixture.clock.waitForSleepers(1)
            #expect(fixture.api.requestCount == 2, "60 s later it polls, whatever the wall clock says")
            group.cancelAll()
        }
    }

    @Test(arguments: [7_200.0, -7_200.0])
    func aDoorbellDeadlineIsASpan(step: Double) async throws {
        let clock = ManualClock()
        let bell = Doorbell()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await bell.wait(until: clock.now().addingTimeInterval(60), clock: clock) }
            await clock.waitForSleepers(1)
            clock.stepWallClock(by: step)
            clock.advance(by: 59)
            #expect(clock.sleeperCount == 1)
            clock.advance(by: 1)
            try await group.next()
            #expect(clock.sleeperCount == 0)
        }
    }

    /// A wait computed from a hostile value (NaN, -inf) returns at once instead of trapping.
    @Test func theSystemClockNeverTrapsOnAnAbsurdWait() async throws {
        let clock = SystemClock()
        let first = clock.monotonicNow()
        try await clock.sleep(for: .nan)
        try await clock.sleep(for: -.infinity)
        try await clock.sleep(until: .distantPast)
        #expect(clock.monotonicNow() >= first)
    }
}
