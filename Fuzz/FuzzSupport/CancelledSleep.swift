import Foundation
import TwfeedKit
import TwfeedCore

/// Hands a wait to the daemon's real clock the way the feed and outbox loops do, in a
/// task that is already cancelled: the conversion of the wait into a sleep (where a huge
/// or infinite value would trap) runs, the sleep itself does not.
public func sleepCancelled(until deadline: Date) async {
    await withTaskGroup(of: Void.self) { group in
        group.cancelAll()
        group.addTask { try? await SystemClock().sleep(until: deadline) }
    }
}

/// As `sleepCancelled(until:)`, for a wait of `seconds` from now (a config interval).
public func sleepCancelled(for seconds: Double) async {
    await withTaskGroup(of: Void.self) { group in
        group.cancelAll()
        group.addTask { try? await SystemClock().sleep(for: seconds) }
    }
}
