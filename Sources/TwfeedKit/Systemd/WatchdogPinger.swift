import Foundation
import Logging
import ServiceLifecycle

/// Sends `WATCHDOG=1` every `interval` (half of `WATCHDOG_USEC`) while no watched loop
/// is hung. Time comes from the injected clock.
package struct WatchdogPinger: Service {
    let watchdog: Watchdog
    let notifier: any Notifier
    let interval: Double
    let logger: Logger

    // Built only by `Daemon.build`: the internal memberwise init serves.

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            var reported: [String] = []
            while !Task.isCancelled {
                let hung = watchdog.hung()
                if hung.isEmpty {
                    notifier.watchdog()
                    if !reported.isEmpty {
                        logger.notice("watchdog.recovered", metadata: ["loops": "\(reported.joined(separator: ","))"])
                    }
                } else if hung != reported {
                    logger.error(
                        "watchdog.stalled",
                        metadata: [
                            "loops": "\(hung.joined(separator: ","))", "hang_after_s": "\(Int(watchdog.hangAfter))",
                        ]
                    )
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
