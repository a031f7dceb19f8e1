extension StatusReport {
    /// How twfeed is doing, decided once when the report is built, so that `twfeed
    /// status` (its exit code and table), `status --json` and `/healthz` cannot disagree.
    package enum Health: Sendable, CaseIterable {
        case healthy
        /// Running, but an enabled feed's last poll failed, the heartbeat is stale (a hung
        /// daemon), or it is signed out.
        case degraded
        /// No snapshot, or the daemon that wrote it is gone.
        case notRunning

        init(running: Bool, heartbeatAge: Double?, signedOut: Bool, anEnabledFeedFailed: Bool) {
            if !running {
                self = .notRunning
            } else if let heartbeatAge, heartbeatAge > StatusReport.staleAfter {
                self = .degraded
            } else if signedOut || anEnabledFeedFailed {
                self = .degraded
            } else {
                self = .healthy
            }
        }

        /// `twfeed status`'s exit status (INTERFACE.md): 3 for not running, as an LSB init
        /// script's `status` says it.
        package var exitCode: Int32 {
            switch self {
            case .healthy: 0
            case .degraded: 1
            case .notRunning: 3
            }
        }

        /// The name `status --json` gives it.
        package var name: String {
            switch self {
            case .healthy: "healthy"
            case .degraded: "degraded"
            case .notRunning: "not-running"
            }
        }

        /// How the `twfeed status` table shows it.
        package var label: String {
            switch self {
            case .healthy: "healthy"
            case .degraded: "degraded"
            case .notRunning: "not running"
            }
        }
    }
}
