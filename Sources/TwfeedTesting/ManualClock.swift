import Foundation
import Synchronization
import TwfeedCore
import TwfeedKit

/// A clock that moves only when told to: tests advance it and the sleepers whose
/// deadline has come are resumed, so no test ever waits on real time.
///
/// Its wall clock and its monotonic clock move together on `advance`, and apart on
/// `stepWallClock` (as when NTP steps the system clock): sleepers wait on the monotonic one.
package final class ManualClock: WallClock {
    private struct Sleeper {
        let id: UInt64
        /// Monotonic seconds.
        let deadline: Double
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var monotonic: Double = 1_000
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>

    package init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Mutex(State(now: now))
    }

    package func now() -> Date { state.withLock { $0.now } }

    package func monotonicNow() -> Double { state.withLock { $0.monotonic } }

    package func sleep(for seconds: Double) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if Task.isCancelled { return (true, []) }
                    // Measured once, when the sleep begins (NaN waits not at all).
                    let deadline = state.monotonic + (seconds.isNaN ? 0 : seconds)
                    if deadline <= state.monotonic { return (true, []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (false, Self.takeSatisfiedWaiters(&state))
                }
                waiters.forEach { $0.resume() }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Lets time pass (both clocks) and wakes every sleeper whose deadline has come.
    package func advance(by seconds: Double) {
        let due = state.withLock { state -> [Sleeper] in
            guard seconds > 0 else { return [] }
            state.now = state.now.addingTimeInterval(seconds)
            state.monotonic += seconds
            let due = state.sleepers.filter { $0.deadline <= state.monotonic }
            state.sleepers.removeAll { $0.deadline <= state.monotonic }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Lets time pass until the wall clock reads `date` (nothing if it is past).
    package func advance(to date: Date) {
        advance(by: date.timeIntervalSince(now()))
    }

    /// Steps the wall clock alone, forward or back, as NTP or a user does: no time
    /// passes, so no sleeper wakes.
    package func stepWallClock(by seconds: Double) {
        state.withLock { $0.now = $0.now.addingTimeInterval(seconds) }
    }

    /// How many tasks are asleep on this clock now.
    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline anyone sleeps until, on the wall clock as it reads now.
    package var nextDeadline: Date? {
        state.withLock { state in
            state.sleepers.map(\.deadline).min().map { state.now.addingTimeInterval($0 - state.monotonic) }
        }
    }

    /// The span until the earliest sleeper wakes (monotonic).
    package var nextWait: Double? {
        state.withLock { state in state.sleepers.map(\.deadline).min().map { $0 - state.monotonic } }
    }

    /// Returns once at least `count` tasks sleep on the clock: the point where a test
    /// knows the code under test has finished its work and is waiting for time to pass.
    package func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func takeSatisfiedWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
        state.sleeperWaiters.removeAll { $0.count <= count }
        return ready
    }
}
