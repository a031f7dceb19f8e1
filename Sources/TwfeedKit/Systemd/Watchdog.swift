import Foundation
import Synchronization
import TwfeedCore

/// Knows whether the loops that do the work are making progress.
///
/// Each loop (a feed poller, the outbox flusher) checks in through the `CheckIn` it
/// was built with: `working` when it starts
/// or advances a piece of work (a page stored, a status sent), `waiting(until:)` when
/// it goes to sleep. A loop is hung when it has been working without progress for
/// longer than `hangAfter` (every request has a timeout, so no step may take that
/// long), or is still asleep `hangAfter` past the time it meant to wake. The
/// `WatchdogPinger` feeds systemd only while no loop is hung, so a hung poller gets
/// the daemon restarted instead of leaving it alive and useless.
///
/// Every deadline is kept on the monotonic clock: a step of the wall clock (NTP, a
/// user) must neither make every loop look hung nor hide a real hang.
package final class Watchdog: Sendable {
    /// Monotonic seconds (`WallClock.monotonicNow`).
    package enum Phase: Sendable, Equatable {
        case working(since: Double)
        case waiting(until: Double)
    }

    /// A watched loop, by what it does (not by a string each side spells).
    package enum Loop: Hashable, Sendable, CustomStringConvertible {
        case poll(Feed)
        case outbox

        /// The name the `watchdog.stalled` event lists.
        package var description: String {
            switch self {
            case .poll(let feed): "poll.\(feed.rawValue)"
            case .outbox: "outbox"
            }
        }
    }

    /// The one way a loop reports to the watchdog: handed to the loop at construction,
    /// so the loop neither knows its name nor whether anyone watches.
    package struct CheckIn: Sendable {
        let watchdog: Watchdog?
        package let loop: Loop?

        /// For a loop that nobody watches (tests, tools).
        package static let unwatched = CheckIn(watchdog: nil, loop: nil)

        /// Starts (or advances) a piece of work.
        package func working() {
            if let watchdog, let loop { watchdog.working(loop) }
        }

        /// Going to sleep until `date` (a wall-clock time, turned into monotonic time now,
        /// as the sleep itself does).
        package func waiting(until date: Date) {
            if let watchdog, let loop { watchdog.waiting(loop, until: date) }
        }

        /// The loop has ended (shutdown); it is no longer watched.
        package func leave() {
            if let watchdog, let loop { watchdog.leave(loop) }
        }
    }

    private let phases = Mutex<[Loop: Phase]>([:])
    let clock: any WallClock
    package let hangAfter: Double

    package init(clock: any WallClock, hangAfter: Double) {
        self.clock = clock
        self.hangAfter = hangAfter
    }

    /// What `loop` is given to check in with.
    package func checkIn(_ loop: Loop) -> CheckIn {
        CheckIn(watchdog: self, loop: loop)
    }

    func working(_ loop: Loop) {
        let now = clock.monotonicNow()
        phases.withLock { $0[loop] = .working(since: now) }
    }

    func waiting(_ loop: Loop, until date: Date) {
        let until = clock.monotonic(at: date)
        phases.withLock { $0[loop] = .waiting(until: until) }
    }

    func leave(_ loop: Loop) {
        _ = phases.withLock { $0.removeValue(forKey: loop) }
    }

    /// The loops that are hung now, by name, sorted.
    package func hung() -> [String] {
        let now = clock.monotonicNow()
        return phases.withLock { phases in
            phases.compactMap { loop, phase -> String? in
                switch phase {
                case .working(let since): now - since > hangAfter ? loop.description : nil
                case .waiting(let until): now - until > hangAfter ? loop.description : nil
                }
            }.sorted()
        }
    }

    /// The loops working now (not waiting), by name, sorted: a test that drives a manual
    /// clock moves it only while none is, as time stands still for work in progress.
    package func working() -> [String] {
        phases.withLock { phases in
            phases.compactMap { loop, phase -> String? in
                if case .working = phase { return loop.description }
                return nil
            }.sorted()
        }
    }

    /// How long a step may take: every request gives up after `api.timeoutSeconds`; a
    /// pipelined page waits for at most two of them, plus storing.
    package static func hangAfter(config: TwfeedConfig) -> Double {
        config.api.timeoutSeconds * 2 + 30
    }
}
