import Foundation
import TwfeedCore
import TwfeedStore

/// What the daemon says about itself, written to a small world-readable file so that
/// `twfeed status` works for any user while the database stays private. Counts only:
/// no tweet text, no secret.
package struct StatusSnapshot: Codable, Sendable, Equatable {
    package var pid: Int32
    package var startedAt: Date
    package var heartbeatAt: Date
    package var dialect: String
    /// The one-line summary of the last cycle, as sent in systemd's `STATUS=`.
    package var lastCycle: String?
    /// The daemon's start time in clock ticks since boot (`/proc/PID/stat`): with the
    /// pid it tells the daemon from an unrelated process that got the pid after a crash.
    package var processStartTicks: UInt64?

    /// How often the daemon's heartbeat rewrites this file, in seconds: a snapshot three
    /// beats old says the daemon is hung.
    package static let heartbeatInterval: Double = 10

    /// A feed's counts and schedule: what `twfeed status` shows, without the tweets.
    package struct FeedCounts: Codable, Sendable, Equatable {
        package var enabled: Bool
        package var tweets: Int
        package var newestId: String?
        package var newestAt: Date?
        package var lastPollAt: Date?
        package var lastSuccessAt: Date?
        /// Typed; a snapshot written before it was typed holds the bare line, which
        /// still reads (`PollFailure`'s decoding).
        package var lastError: PollFailure?
        package var nextPollAt: Date?
        package var rateLimitLimit: Int?
        package var rateLimitRemaining: Int?
        package var rateLimitResetAt: Date?

        package init(enabled: Bool, stats: FeedStats, sync: SyncState) {
            self.enabled = enabled
            tweets = stats.tweets
            newestId = stats.newestID?.description
            newestAt = stats.newestCreatedAt
            lastPollAt = sync.lastPollAt
            lastSuccessAt = sync.lastSuccessAt
            lastError = sync.lastError
            nextPollAt = sync.nextPollAt
            rateLimitLimit = sync.rateLimit?.limit
            rateLimitRemaining = sync.rateLimit?.remaining
            rateLimitResetAt = sync.rateLimit?.resetAt
        }

        package var stats: FeedStats {
            FeedStats(tweets: tweets, newestID: newestId.flatMap(TweetID.init), newestCreatedAt: newestAt)
        }

        package func sync(_ feed: Feed) -> SyncState {
            var state = SyncState(feed: feed)
            state.lastPollAt = lastPollAt
            state.lastSuccessAt = lastSuccessAt
            state.lastError = lastError
            state.nextPollAt = nextPollAt
            if let rateLimitLimit, let rateLimitRemaining, let rateLimitResetAt {
                state.rateLimit = RateLimit(limit: rateLimitLimit, remaining: rateLimitRemaining, resetAt: rateLimitResetAt)
            }
            return state
        }
    }

    /// The counts, refreshed after each cycle and with every heartbeat, so that a user
    /// who cannot open the daemon's private database still gets the whole status.
    package struct Counts: Codable, Sendable, Equatable {
        package var at: Date
        /// Each feed's counts and schedule.
        @ByName package var feeds: [Feed: FeedCounts]
        /// Statuses by state.
        @ByName package var outbox: [OutboxState: Int]
        package var oldestPendingAt: Date?
        package var imageFiles: Int
        package var imageBytes: Int64
        package var databasePath: String
        package var databaseBytes: Int64
        /// The signed-in account the feeds' counts belong to (nil before the first lookup).
        package var account: AccountName?
        /// The ledger's summary (nil in a snapshot written before the ledger existed).
        package var spend: SpendCounts?

        /// An account as `status` names it: its user id (a string in JSON, as ids are)
        /// and its username.
        package struct AccountName: Codable, Sendable, Equatable {
            package var id: UserID
            package var username: String?

            package init(id: UserID, username: String?) {
                self.id = id
                self.username = username
            }
        }

        private enum CodingKeys: String, CodingKey {
            case at, feeds, outbox, oldestPendingAt, imageFiles, imageBytes, databasePath, databaseBytes, account, spend
        }

        package init(
            at: Date,
            feeds: [Feed: FeedCounts],
            outbox: [OutboxState: Int],
            oldestPendingAt: Date?,
            imageFiles: Int,
            imageBytes: Int64,
            databasePath: String,
            databaseBytes: Int64,
            account: AccountName? = nil,
            spend: SpendCounts? = nil
        ) {
            self.spend = spend
            self.at = at
            self.feeds = feeds
            self.outbox = outbox
            self.oldestPendingAt = oldestPendingAt
            self.imageFiles = imageFiles
            self.imageBytes = imageBytes
            self.databasePath = databasePath
            self.databaseBytes = databaseBytes
            self.account = account
        }
    }

    package var counts: Counts?
    /// True while the credentials hold no access token: the daemon runs but does not
    /// poll or post (after `twfeed logout`).
    package var signedOut: Bool?
    /// The credentials file the daemon reads: `twfeed login`/`logout` signal the daemon
    /// only when it reads the file they wrote.
    package var credentialsPath: String?

    package init(pid: Int32, startedAt: Date, heartbeatAt: Date, dialect: String, lastCycle: String? = nil) {
        self.pid = pid
        self.startedAt = startedAt
        self.heartbeatAt = heartbeatAt
        self.dialect = dialect
        self.lastCycle = lastCycle
    }

    /// `$RUNTIME_DIRECTORY/status.json` under systemd (for an account run from a shell,
    /// its unit's `/run/twfeed/NAME/status.json`), else beside the database.
    package static func path(config: TwfeedConfig, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first.map(String.init) ?? config.runtimeDirectory
        if let runtime { return "\(runtime)/status.json" }
        return config.storage.database + ".status.json"
    }

    /// Where the systemd unit's daemon (`RuntimeDirectory=twfeed`) keeps its snapshot.
    package static let systemdPath = "/run/twfeed/status.json"

    /// The snapshot a reader should look at: the daemon's own path when it exists,
    /// else the systemd unit's, so that `twfeed status` run by any user (who has no
    /// `$RUNTIME_DIRECTORY` and perhaps no config) finds the service's daemon.
    package static func readerPath(
        config: TwfeedConfig,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        systemdPath: String = StatusSnapshot.systemdPath
    ) -> String {
        let own = path(config: config, environment: environment)
        // An account's snapshot is its instance's: never the single unit's, another account.
        if config.account != nil { return own }
        if FileManager.default.fileExists(atPath: own) || !FileManager.default.fileExists(atPath: systemdPath) { return own }
        return systemdPath
    }

    package func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        try AtomicFile.write(try encoder.encode(self), to: path, mode: 0o644)
    }

    package static func read(from path: String) -> StatusSnapshot? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(StatusSnapshot.self, from: data)
    }

    /// Whether the daemon that wrote the snapshot still runs: its pid is alive AND is
    /// that daemon (same start time, or the holder of the database's lock). A stale pid
    /// reused by another process is not running, and is never signalled.
    package var processAlive: Bool {
        ProcessLiveness.isDaemon(pid, startTicks: processStartTicks, database: counts?.databasePath)
    }
}
