extension StatusReport {
    /// How twfeed is doing, decided once when the report is built, so that `twfeed
    /// status` (its exit code and table), `status --json` and `/healthz` cannot disagree.
    package enum Health: Sendable, CaseIterable {
        case healthy
        /// Running, but an enabled feed's last poll failed, the heartbeat is stale (a hung
        /// daemon), it is signed out, the API refuses for money, or it refuses a feed.
        case degraded
        /// No snapshot, or the daemon that wrote it is gone.
        case notRunning

        /// - Parameters:
        ///   - billingStopped: the API refuses for money (credits, a spend or usage cap).
        ///   - notPermitted: the API refuses a feed (or the outbox) to this account.
        init(
            running: Bool,
            heartbeatAge: Double?,
            signedOut: Bool,
            anEnabledFeedFailed: Bool,
            billingStopped: Bool = false,
            notPermitted: Bool = false
        ) {
            if !running {
                self = .notRunning
            } else if let heartbeatAge, heartbeatAge > StatusReport.staleAfter {
                self = .degraded
            } else if signedOut || anEnabledFeedFailed || billingStopped || notPermitted {
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
