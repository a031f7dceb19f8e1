import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Knows whether the loops that do the work are making progress.
///
/// Each loop (a feed poller, the outbox flusher) checks in: `working` when it starts
/// or advances a piece of work (a page stored, a status sent), `waiting(until:)` when
/// it goes to sleep. A loop is hung when it has been working without progress for
/// longer than `hangAfter` (every request has a timeout, so no step may take that
/// long), or is still asleep `hangAfter` past the time it meant to wake. The
/// `WatchdogPinger` feeds systemd only while no loop is hung, so a hung poller gets
/// the daemon restarted instead of leaving it alive and useless.
public final class Watchdog: Sendable {
    public enum Phase: Sendable, Equatable {
        case working(since: Date)
        case waiting(until: Date)
    }

    private let phases = Mutex<[String: Phase]>([:])
    let clock: any WallClock
    public let hangAfter: Double

    public init(clock: any WallClock, hangAfter: Double) {
        self.clock = clock
        self.hangAfter = hangAfter
    }

    /// Starts (or advances) a piece of work.
    public func working(_ name: String) {
        let now = clock.now()
        phases.withLock { $0[name] = .working(since: now) }
    }

    /// Going to sleep until `date`.
    public func waiting(_ name: String, until date: Date) {
        phases.withLock { $0[name] = .waiting(until: date) }
    }

    /// The loop has ended (shutdown); it is no longer watched.
    public func leave(_ name: String) {
        _ = phases.withLock { $0.removeValue(forKey: name) }
    }

    /// The loops that are hung now, by name, sorted.
    public func hung(now: Date) -> [String] {
        phases.withLock { phases in
            phases.compactMap { name, phase -> String? in
                switch phase {
                case .working(let since): now.timeIntervalSince(since) > hangAfter ? name : nil
                case .waiting(let until): now.timeIntervalSince(until) > hangAfter ? name : nil
                }
            }.sorted()
        }
    }

    /// How long a step may take: every request gives up after `api.timeoutSeconds`; a
    /// pipelined page waits for at most two of them, plus storing.
    public static func hangAfter(config: TwfeedConfig) -> Double {
        config.api.timeoutSeconds * 2 + 30
    }
}

/// Sends `WATCHDOG=1` every `interval` (half of `WATCHDOG_USEC`) while no watched loop
/// is hung. Time comes from the injected clock.
public struct WatchdogPinger: Service {
    let watchdog: Watchdog
    let notifier: any Notifier
    let interval: Double
    let logger: Logger

    public init(watchdog: Watchdog, notifier: any Notifier, interval: Double, logger: Logger) {
        self.watchdog = watchdog
        self.notifier = notifier
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var reported: [String] = []
            while !Task.isCancelled {
                let now = watchdog.clock.now()
                let hung = watchdog.hung(now: now)
                if hung.isEmpty {
                    notifier.watchdog()
                    if !reported.isEmpty {
                        logger.notice("watchdog.recovered", metadata: ["loops": "\(reported.joined(separator: ","))"])
                    }
                } else if hung != reported {
                    logger.error("watchdog.stalled", metadata: [
                        "loops": "\(hung.joined(separator: ","))", "hang_after_s": "\(Int(watchdog.hangAfter))",
                    ])
                }
                reported = hung
                do {
                    try await watchdog.clock.sleep(for: interval)
                } catch {
                    return
                }
            }
        }
    }
}
