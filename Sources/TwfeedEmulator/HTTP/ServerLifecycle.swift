import Foundation

/// The server's stop signal and thread count, on one condition variable: `stop()` fires
/// the signal (cutting short every `wait`, e.g. a slow fault's delay) and then waits
/// until every thread the server started has finished.
final class ServerLifecycle: @unchecked Sendable {
    // @unchecked: both fields are only touched with `condition` locked.
    private let condition = NSCondition()
    private var stopped = false
    private var active = 0

    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Sleeps up to `seconds`; true if the server was stopped meanwhile (or already).
    func wait(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            if !condition.wait(until: deadline) { break }
        }
        return stopped
    }

    func fire() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Counts a thread in (call before starting it, so `stop()` cannot miss it).
    func enter() {
        condition.lock()
        active += 1
        condition.unlock()
    }

    func leave() {
        condition.lock()
        active -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every counted thread has left; false on timeout.
    @discardableResult
    func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while active > 0 {
            if !condition.wait(until: deadline) { return active == 0 }
        }
        return true
    }
}
