import Foundation
import Logging
import ServiceLifecycle
import Testing
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

struct WatchdogTests {
    @Test func aLoopIsHungWhenItWorksWithoutProgressOrOversleeps() {
        let clock = ManualClock()
        let watchdog = Watchdog(clock: clock, hangAfter: 90)
        let start = clock.now()
        let home = watchdog.checkIn(.poll(.home))
        home.working()
        watchdog.checkIn(.outbox).waiting(until: start.addingTimeInterval(60))
        clock.advance(by: 90)
        #expect(watchdog.hung() == [])
        clock.advance(by: 1)
        #expect(watchdog.hung() == ["poll.home"])
        clock.advance(by: 60)
        #expect(watchdog.hung() == ["outbox", "poll.home"])
        home.working()  // a page stored: progress
        #expect(watchdog.hung() == ["outbox"])
        home.leave()
        clock.advance(by: 1000)
        #expect(watchdog.hung() == ["outbox"])
    }

    /// NTP steps the wall clock: deadlines are monotonic, so a step either way makes no
    /// loop look hung, and a real hang is still found.
    @Test func aWallClockStepMakesNoLoopLookHungAndARealHangIsStillFound() {
        let clock = ManualClock()
        let watchdog = Watchdog(clock: clock, hangAfter: 90)
        let home = watchdog.checkIn(.poll(.home))
        let outbox = watchdog.checkIn(.outbox)
        home.working()
        outbox.waiting(until: clock.now().addingTimeInterval(60))
        for step in [7_200.0, -7_200, -7_200, 7_200] {
            clock.stepWallClock(by: step)
            #expect(watchdog.hung() == [], "a \(step) s wall-clock step is not a hang")
        }
        // A loop that goes to sleep while the wall clock is 2 h behind is not hung either.
        clock.stepWallClock(by: -7_200)
        outbox.waiting(until: clock.now().addingTimeInterval(60))
        clock.stepWallClock(by: 7_200)
        clock.advance(by: 80)
        #expect(watchdog.hung() == [])
        clock.advance(by: 11)
        #expect(watchdog.hung() == ["poll.home"], "working 91 s without progress")
        clock.advance(by: 60)
        #expect(watchdog.hung() == ["outbox", "poll.home"], "asleep 91 s past its wake-up")
    }

    @Test func systemdWatchdogIntervalIsHalfOfWatchdogUSec() {
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "60000000"]) == 30)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "60000000", "WATCHDOG_PID": "\(getpid())"]) == 30)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "60000000", "WATCHDOG_PID": "1"]) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: [:]) == nil)
        #expect(SystemdNotifier(environment: [:]) == nil)
    }

    @Test func abstractNotifySocketAddressesCountOnlyTheNameBytes() throws {
        let offset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        let (_, abstract) = try UnixDatagram.address("@systemd/notify")
        #expect(Int(abstract) == offset + 15)
        let (_, path) = try UnixDatagram.address("/run/systemd/notify")
        #expect(Int(path) == offset + 20)
    }

    /// The daemon as `Daemon.build` wires it, with every request hanging: the pollers
    /// check in as working and never progress, so after `hangAfter` the pings stop and
    /// systemd (WatchdogSec) would restart the daemon.
    @Test func aHungPollerStopsTheWatchdogPings() async throws {
        let clock = ManualClock()
        let sink = MemorySink()
        let logger = Logger(label: "t") { _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
        let notifier = RecordingNotifier(watchdogInterval: 5)
        let hanging = HangingTransport()
        var config = TwfeedConfig(environment: ["HOME": "/nonexistent"])
        config.api.baseURL = "http://127.0.0.1:9"
        config.api.timeoutSeconds = 30
        let daemon = try Daemon.build(
            config: config,
            credentials: Credentials(consumerKey: "ck", consumerSecret: "cs", accessToken: "at", accessTokenSecret: "as"),
            database: try AppDatabase.inMemory(),
            dependencies: .init(transport: hanging, clock: clock, notifier: notifier), logger: logger)
        #expect(daemon.watchdog.hangAfter == 90)
        // The pollers and the pinger; the pinger is then the only sleeper on the clock.
        let services = daemon.services.filter { $0 is FeedPoller || $0 is WatchdogPinger }
        #expect(services.count == 4)
        func pings() -> Int { notifier.messages.filter { $0 == "WATCHDOG=1" }.count }
        func advance(_ steps: Int) async {
            for _ in 0 ..< steps {
                clock.advance(by: 5)
                await clock.waitForSleepers(1)
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in services { group.addTask { try await service.run() } }
            await clock.waitForSleepers(1)
            #expect(pings() == 1)
            // For 85 s the pollers are merely slow: a ping every 5 s.
            await advance(17)
            #expect(pings() == 18)
            #expect(sink.events("watchdog.stalled").isEmpty)
            // Well past 90 s without progress they are hung: the pings stop.
            await advance(5)
            let afterHang = pings()
            await advance(4)
            #expect(pings() == afterHang)
            #expect(afterHang < 23)
            // Logged when the set of hung loops changes (a poller that started a step
            // later is found hung a step later).
            let stalled = try #require(sink.events("watchdog.stalled").last)
            #expect(stalled.contains("loops=poll.home,poll.mentions,poll.retweets"))
            #expect(stalled.contains("level=error"))
            #expect(sink.events("watchdog.stalled").count <= 2)
            hanging.release()
            group.cancelAll()
        }
    }
}
