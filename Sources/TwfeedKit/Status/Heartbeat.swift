import Foundation
import Logging
import ServiceLifecycle
import TwfeedCore
import TwfeedStatus

/// Rewrites the status snapshot on a timer, so a stale heartbeat tells `twfeed status`
/// that the daemon is hung even though its process exists. It refreshes the counts at
/// every beat and at once after each cycle, and sends systemd the cycle's one-line
/// `STATUS=` summary. After each beat it gives back the memory the work since the last
/// one left behind (`releaseMemory`).
package struct Heartbeat: Service {
    package static let interval: Double = StatusSnapshot.heartbeatInterval

    let path: String?
    let board: StatusBoard
    let clock: any WallClock
    let notifier: (any Notifier)?
    let logger: Logger

    // Built only by `Daemon.build`: the internal memberwise init serves.

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            var failing = false
            while !Task.isCancelled {
                let snapshot = await board.refresh(now: clock.now())
                if let line = board.takeStatusLine() { notifier?.status(line) }
                await releaseMemory()
                if let path {
                    do {
                        // Written after the line is taken, so the file carries it too.
                        var current = snapshot
                        current.lastCycle = board.snapshot.lastCycle
                        try current.write(to: path)
                        failing = false
                    } catch {
                        if !failing {
                            logger.warning("heartbeat.failed", metadata: ["path": "\(path)", "error": "\(error)"])
                        }
                        failing = true
                    }
                }
                await board.changed.wait(until: clock.now().addingTimeInterval(Self.interval), clock: clock)
            }
        }
    }

    /// Empties the writer's page cache and returns the C heap's free pages to the kernel:
    /// between polls the daemon is idle for a minute or more, and what a cycle (a
    /// backfill above all) left in the writer's cache would otherwise stay resident
    /// until the next one. Each beat (every 10 s, and after each cycle), since a beat
    /// does not know whether more work follows; both are cheap when there is little to
    /// give back. A failure here changes nothing but the memory figure: not logged.
    func releaseMemory() async {
        try? await board.database?.releaseWriterCache()
        MallocTrim.run()
    }
}
