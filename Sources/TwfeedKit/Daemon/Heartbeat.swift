import Foundation
import Logging
import ServiceLifecycle

/// Rewrites the status snapshot on a timer, so a stale heartbeat tells `twfeed status`
/// that the daemon is hung even though its process exists.
public struct Heartbeat: Service {
    public static let interval: Double = 10

    let path: String
    let snapshot: StatusSnapshot
    let clock: any WallClock
    let logger: Logger

    public init(path: String, snapshot: StatusSnapshot, clock: any WallClock, logger: Logger) {
        self.path = path
        self.snapshot = snapshot
        self.clock = clock
        self.logger = logger
    }

    public func run() async throws {
        defer { unlink(path) }
        await cancelWhenGracefulShutdown {
            var snapshot = snapshot
            while !Task.isCancelled {
                snapshot.heartbeatAt = clock.now()
                do {
                    try snapshot.write(to: path)
                } catch {
                    logger.warning("heartbeat.failed", metadata: ["path": "\(path)", "error": "\(error)"])
                }
                do {
                    try await clock.sleep(for: Self.interval)
                } catch {
                    return
                }
            }
        }
    }
}
