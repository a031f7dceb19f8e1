import Foundation
import Testing
import TwfeedBilling
import TwfeedEmulator
import TwfeedSandbox
@testable import TwfeedKit
import TwfeedTesting

/// The fault matrix: every fault the emulator injects (`Fault.Kind.allCases`, so a new
/// fault joins the matrix by itself) × each feed and the outbox × both dialects. The whole
/// daemon runs in process against the emulator on a `ManualClock` that the test moves to
/// the next deadline whenever the daemon sleeps, so rate-limit waits and backoffs pass at
/// once. Each cell asserts what a user would notice: the daemon is still up and its loops
/// go on working, every tweet of the emulator's timelines is stored once with the right
/// feed tag, every queued status is posted once and `sent`.
///
/// The pay-per-use API's refusals (402 `CreditsDepleted`, 403 `SpendCapReached`, 429
/// `UsageCapExceeded`, 403 not enrolled) are faults too, and hold the daemon back for
/// minutes to days by design; their cells also check that it did hold
/// (`FaultMatrixCell.hold`).
///
/// The cells share nothing (each has its own emulator on its own port, folder, database,
/// clock and daemon), so they run side by side, a few at a time (`lanes`).
@Suite(.tags(.integration, .faultMatrix))
struct FaultMatrixTests {
    /// How many cells run at once: a cell mostly waits (on loopback, on its one-second
    /// timeouts), so more lanes than cores pay, but 168 daemons at once only fight over
    /// two cores. `TWFEED_MATRIX_LANES` overrides it (1 runs them one by one).
    static let lanes = Lanes(width: ProcessInfo.processInfo.environment["TWFEED_MATRIX_LANES"].flatMap { Int($0) } ?? 6)

    /// The longest cells first (`FaultMatrixCell.startOrder`): a lane that takes one up
    /// last would run it alone while the others have ended.
    static let cells: [FaultMatrixCell] = Fault.examples.flatMap { fault in
        MatrixTarget.allCases.flatMap { target in
            ["v2", "v1.1"].map { FaultMatrixCell(fault: fault, target: target, dialect: $0) }
        }
    }.sorted { $0.startOrder < $1.startOrder }

    /// The matrix is complete: every kind has examples of its own kind, and every kind
    /// meets every target in both dialects.
    @Test func theMatrixCoversEveryFaultTargetAndDialect() {
        for kind in Fault.Kind.allCases {
            #expect(!kind.examples.isEmpty, "\(kind) has no example")
            #expect(kind.examples.allSatisfy { $0.kind == kind }, "\(kind)'s examples are of another kind")
            for target in MatrixTarget.allCases {
                for dialect in ["v2", "v1.1"] {
                    #expect(Self.cells.contains { $0.fault.kind == kind && $0.target == target && $0.dialect == dialect },
                            "no cell for \(kind) × \(target) × \(dialect)")
                }
            }
        }
    }

    @Test(arguments: cells)
    func theDaemonRidesOutTheFault(cell: FaultMatrixCell) async throws {
        await Self.lanes.enter()
        defer { Self.lanes.leave() }
        try await ride(cell)
    }

    private func ride(_ cell: FaultMatrixCell) async throws {
        // One clock for both sides: the outbox settles a lost post by the times the server
        // gives its tweets, so the server must not read real time while the daemon's clock
        // races ahead. The signer reads this clock too, but it may leap between signing a
        // request and sending it: the emulator's timestamp check is off.
        let clock = ManualClock(now: Date())
        let world = try TestWorld(dialect: cell.dialect, tweets: 30) {
            $0.clock = { clock.now() }
            $0.timestampToleranceSeconds = 0
        }
        // One-second timeouts, so the `slow` fault is a timeout; statuses flush every second.
        // The feeds poll every two minutes, the daemon's default (not TestWorld's 15 s): a
        // cell's clock runs for hours while a fault's backoffs or holds pass, and at 15 s
        // the feeds' idle polls were most of the matrix's work (14,286 requests against
        // 7,542 for the 168 cells; 88 CPU-seconds against 62 in the release test binary).
        try world.writeConfig(TestWorld.feeds(every: 120).merging([
            "api": .object(["dialect": .string(cell.dialect), "baseURL": .string(world.emulator.baseURL),
                            "timeoutSeconds": .number("1")]),
            "outbox": .object(["flushIntervalSeconds": .number("1"), "maxAgeHours": .number(String(cell.maxAgeHours))]),
        ]) { $1 })
        // The rate-limit windows would close as the clock races ahead: only the injected
        // faults may refuse a request.
        for endpoint in ["home", "mentions", "retweets", "post", "me", "ownPosts"] {
            world.emulator.setRateLimit(1_000_000, for: endpoint)
        }
        // No duplicate check: exactly once is twfeed's own doing (the outbox settles an
        // `uncertain` post by reading the account's tweets), not the API's.
        world.emulator.setDuplicateWindow(seconds: 0)
        let transport = ObservedTransport()
        let daemon = try world.daemon(clock: clock, transport: transport)
        let texts = (1 ... 3).map { "matrix \(cell) status \($0)" }
        for text in texts { _ = try await daemon.database.enqueue(text: text, replyTo: nil, now: clock.now()) }
        let marker = cell.target.pathMarker(cell.dialect)
        let times = 2
        // The outbox's marker is also the lookups' path (`GET /2/tweets`): by method.
        let method = cell.target == .outbox ? "POST" : "GET"
        world.emulator.inject(cell.fault, times: times, pathContains: marker, method: method)

        let finished = Finished()
        let running = Task {
            defer { finished.set() }
            try await daemon.run()
        }
        defer { running.cancel() }

        func settled(_ texts: [String]) async throws -> Bool {
            for feed in Feed.polled {
                let stored = try await daemon.database.memberIDs(feed).map(\.description)
                let expected = world.emulator.expectedMembers(feed, dialect: cell.emulatorDialect)
                guard Set(stored) == Set(expected) else { return false }
            }
            let items = try await daemon.database.outboxItems()
            return items.count == texts.count && items.allSatisfy { $0.state == .sent }
        }

        let served = {
            world.emulator.requests.filter { $0.fault == cell.fault.controlName && $0.path.contains(marker) && $0.method == method }.count
        }
        let recovered = try await drive(clock, transport, daemon.watchdog, finished, cell: cell) {
            served() == times ? try await settled(texts) : false
        }
        if !recovered { Issue.record("did not recover: \(await describe(daemon, world, cell))") }
        #expect(served() == times, "the fault was not served \(times) times")
        let servings = world.emulator.requests.filter { $0.fault == cell.fault.controlName && $0.path.contains(marker) && $0.method == method }
            .map(\.date)
        if servings.count == times, let hold = try cell.hold(after: servings[0]) {
            let waited = servings[1].timeIntervalSince(servings[0])
            let state = await describe(daemon, world, cell)
            #expect(hold.contains(waited), "asked again after \(Int(waited)) s; expected \(hold): \(state)")
        }
        if cell.fault.kind == .creditsDepleted, servings.count == times {
            // Any 402 is no credits, whatever its body: the state, entered at most once
            // per 402 (another source's probe may succeed between the two, the fault
            // being on one path only), never any other state; and until the first probe
            // is due (`api.creditsRecheckMinutes`, 15), nothing asked but what was
            // already on its way (at most one request per other source).
            let changes = world.sink.events("billing.state")
            let entered = changes.filter { $0.contains("state=out_of_credits") }
            #expect((1...times).contains(entered.count), "\(changes)")
            #expect(changes.allSatisfy { $0.contains("state=out_of_credits") || $0.contains("state=ok") }, "no other state: \(changes)")
            let probeDue = servings[0].addingTimeInterval(15 * 60)
            let held = world.emulator.requests.filter { $0.date > servings[0] && $0.date < probeDue && $0.dialect != nil }
            #expect(held.count <= 5, "\(held.count) requests while out of credits: \(held.map(\.path))")
        }

        // The loops still make progress: new tweets in every feed and a new status.
        for feed in EmulatorFeed.allCases { world.emulator.addTweets(to: feed, count: 2) }
        let later = texts + ["matrix \(cell) after the fault"]
        _ = try await daemon.database.enqueue(text: later.last!, replyTo: nil, now: clock.now())
        daemon.doorbell.ring()
        let progressed = try await drive(clock, transport, daemon.watchdog, finished, cell: cell) { try await settled(later) }
        if !progressed { Issue.record("stopped making progress: \(await describe(daemon, world, cell))") }

        #expect(!finished.value, "the daemon stopped")
        for feed in Feed.allCases {
            let stored = try await daemon.database.memberIDs(feed)
            #expect(stored.count == Set(stored).count, "\(feed) holds a tweet twice")
        }
        let posted = world.emulator.postedStatuses.map(\.text)
        #expect(posted.sorted() == later.sorted(), "posted: \(posted)")
        #expect(try await daemon.database.outboxItems().allSatisfy { $0.state != .failed }, "no status failed")
        let check = try daemon.database.inspect { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")

        await daemon.triggerGracefulShutdown()
        try await running.value
    }

    /// Moves the clock to the next sleeper's deadline until `condition` holds. Returns
    /// false if it never did within the time the cell may take on its own clock
    /// (`FaultMatrixCell.patience`) or the daemon stopped. Time stands still while a request is in flight, as it nearly does
    /// for a real daemon: a one-second timeout must not let a day pass (and expire the
    /// queue). Real time decides nothing: a loaded machine only makes a cell slower.
    /// `safetyNet` (ten minutes of real time, a hundred times what a cell takes on an
    /// idle machine) only ends a daemon that hangs, so that one cell cannot stall the run.
    private func drive(_ clock: ManualClock, _ transport: ObservedTransport, _ watchdog: Watchdog, _ finished: Finished,
                       cell: FaultMatrixCell, safetyNet: Duration = .seconds(600), until condition: () async throws -> Bool) async throws -> Bool {
        let limit = clock.now().addingTimeInterval(cell.patience)
        let hung = ContinuousClock.now.advanced(by: safetyNet)
        while clock.now() < limit, ContinuousClock.now < hung, !finished.value {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(5))
            // Time stands still while the outbox works (the store, the billing gate): a
            // busy loop is no sleeper, and the next deadline may then be a far one (the
            // day's spend line at midnight), leaping past the statuses' expiry. The
            // feeds' work is not waited for, so an hour still passes in seconds.
            guard transport.inFlight == 0, !watchdog.working().contains("outbox") else { continue }
            // At least `step` a step (10 s): waking a sleeper late is harmless, and a floor
            // of 15 minutes then passes in a hundred steps, not in the outbox's 1 s ones.
            guard let next = clock.nextDeadline else { continue }
            let asleep = clock.sleeperCount
            clock.advance(to: max(next, clock.now().addingTimeInterval(cell.step)))
            // The clock moves on once the loops it woke sleep again, so the daemon's own
            // time follows its work however slow the machine is, and `patience` means
            // the same on any machine. A loop that woke to end, or to wait on something
            // else than the clock, is given up on after a quarter second.
            let woke = ContinuousClock.now
            while clock.sleeperCount < asleep, ContinuousClock.now - woke < .milliseconds(250), !finished.value {
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        return try await condition()
    }

    private func describe(_ daemon: Daemon, _ world: TestWorld, _ cell: FaultMatrixCell) async -> String {
        do {
            return try await describeState(daemon, world, cell)
        } catch {
            return "\(error)"
        }
    }

    private func describeState(_ daemon: Daemon, _ world: TestWorld, _ cell: FaultMatrixCell) async throws -> String {
        var lines: [String] = []
        for feed in Feed.polled {
            let state = try await daemon.database.syncState(feed)
            lines.append("\(feed): \(try await daemon.database.memberIDs(feed).count)/\(world.emulator.expectedMembers(feed, dialect: cell.emulatorDialect).count) error \(state.lastError?.description ?? "-") next \(state.nextPollAt.map { "\($0)" } ?? "-")")
        }
        for item in try await daemon.database.outboxItems() {
            lines.append("outbox \(item.id) \(item.state) attempts \(item.attempts) \(item.lastError?.description ?? "")")
        }
        lines += world.sink.lines.filter { $0.contains("outbox") || $0.contains("billing") }.suffix(8)
        lines.append("posted \(world.emulator.postedStatuses.count); faults served \(world.emulator.requests.filter { $0.fault != nil }.count)")
        return lines.joined(separator: "\n")
    }
}

/// What a matrix cell breaks: one feed's timeline requests or the posting of statuses.
enum MatrixTarget: String, CaseIterable, Sendable {
    case home, mentions, retweets, outbox

    /// A piece of the path of this target's requests, and of no other's.
    func pathMarker(_ dialect: String) -> String {
        switch (self, dialect) {
        case (.home, "v2"): "/timelines/reverse_chronological"
        case (.mentions, "v2"): "/mentions"
        case (.retweets, "v2"): "/reposts_of_me"
        case (.outbox, "v2"): "/2/tweets"
        case (.home, _): "/home_timeline"
        case (.mentions, _): "/mentions_timeline"
        case (.retweets, _): "/retweets_of_me"
        case (.outbox, _): "/statuses/update"
        }
    }
}

struct FaultMatrixCell: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    let fault: Fault
    let target: MatrixTarget
    let dialect: String

    var emulatorDialect: EmulatorDialect { dialect == "v2" ? .v2 : .v1_1 }

    /// The clock's least step while nothing is in flight. The other faults' backoffs run
    /// minutes to an hour: a minute a step (the statuses' one-second flush would otherwise
    /// set the pace, ten seconds a step, six times the loop's work for the same clock). A
    /// billing refusal holds for minutes (credits: a probe every 15) to two days (a spend
    /// cap, a usage cap or an endpoint refused, each refused again at its first probe):
    /// half-hour steps pass them in about a hundred steps, and only make a probe up to one
    /// step late. An endpoint not enrolled is held alone, a day at a time, while the other
    /// feeds poll at every step: three-hour steps, as its hold has no upper bound to check
    /// (at half an hour its 8 cells made 2,279 of the matrix's 6,155 requests).
    var step: TimeInterval {
        switch fault.kind {
        case .notEnrolled: 3 * 3_600
        case _ where fault.kind.isBillingRefusal: 1_800
        default: 60
        }
    }

    /// When the cell starts, smallest first: the cells that wait out real one-second
    /// timeouts (`slow`), or whose clock runs days with the other feeds polling (an
    /// endpoint not enrolled), then those that back off for long (401, 429, the usage cap),
    /// then the rest (about a third of a second each, measured one by one).
    var startOrder: Int {
        switch fault.kind {
        case .slow, .notEnrolled: 0
        case .authFailure, .rateLimited, .usageCapExceeded: 1
        default: 2
        }
    }

    /// How long the daemon may take to recover, on its own clock: a billing refusal's
    /// hold (up to two days) within the statuses' `maxAgeHours`; for the other faults six
    /// hours, several times the longest backoff (an hour) after the fault's two servings.
    var patience: TimeInterval { fault.kind.isBillingRefusal ? TimeInterval(maxAgeHours) * 3_600 : 6 * 3_600 }

    /// `outbox.maxAgeHours` for the cell. The statuses must outlive the hold: a spend cap
    /// that lifts at the next 00:00 UTC, refused again at its probe, holds posts up to two
    /// days, and so does an outbox not enrolled, rechecked a day later and refused again.
    /// With the default 24 h they would expire, as the expiry policy says (the outbox's
    /// own tests cover that); here the point is that the hold loses and repeats nothing.
    var maxAgeHours: Int { fault.kind.isBillingRefusal ? 72 : 24 }

    /// How long after the first refusal the target may be asked again (seconds), for a
    /// billing refusal: its documented hold, so a daemon that retried at once or at the
    /// next rate-limit window fails the cell. Nil for the other faults.
    /// - 402: a probe every `api.creditsRecheckMinutes` (15).
    /// - 403 spend cap: nothing before its `reset_date`, the fault's next UTC day.
    /// - 429 usage cap: reads wait for the daily probe (or the cycle's end, if sooner).
    ///   Posts are not what the cap counts, so they go on under it; but a post the API
    ///   refuses with it all the same waits for that probe too: a billing refusal is
    ///   never sent again at the next flush, in a loop.
    /// - 403 not enrolled: the endpoint is asked again a day later.
    func hold(after first: Date) throws -> ClosedRange<TimeInterval>? {
        let day: TimeInterval = 86_400
        switch fault.kind {
        case .creditsDepleted:
            return 15 * 60 ... .infinity
        case .spendCapReached:
            return BillingCycle.endOfUTCDay(first).timeIntervalSince(first) ... .infinity
        case .usageCapExceeded:
            let cycleEnd = try BillingCycle(startDay: 1).cycle(containing: first).end
            return min(day, cycleEnd.timeIntervalSince(first)) ... .infinity
        case .notEnrolled:
            return day ... .infinity
        case .status, .slow, .resetMidBody, .truncatedJSON, .malformedJSON, .rateLimited, .authFailure, .acceptThenReset,
             .rateLimitedWithoutHeaders, .rateLimitedWithPastReset, .badRateLimitHeader, .rateLimitedWithBadHeader:
            return nil
        }
    }
    var description: String { "\(fault.controlName)(\(fault)) × \(target.rawValue) × \(dialect)" }
    var testDescription: String { description }
}

import Synchronization
@testable import TwfeedCore

/// A bound on how many tasks run at once: `enter` waits for a free lane, `leave` frees it
/// (or hands it to the longest waiter).
final class Lanes: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(width: Int) { state = Mutex(State(free: max(1, width))) }

    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let entered = state.withLock { state -> Bool in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if entered { continuation.resume() }
        }
    }

    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

/// Set once the daemon's `run` has returned.
final class Finished: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var value: Bool { flag.withLock { $0 } }
}
