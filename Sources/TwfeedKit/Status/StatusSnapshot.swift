import Foundation

/// What the daemon says about itself, written to a small world-readable file so that
/// `twfeed status` works for any user while the database stays private. Counts only:
/// no tweet text, no secret.
public struct StatusSnapshot: Codable, Sendable, Equatable {
    public var pid: Int32
    public var startedAt: Date
    public var heartbeatAt: Date
    public var dialect: String
    /// The one-line summary of the last cycle, as sent in systemd's `STATUS=`.
    public var lastCycle: String?
    /// The daemon's start time in clock ticks since boot (`/proc/PID/stat`): with the
    /// pid it tells the daemon from an unrelated process that got the pid after a crash.
    public var processStartTicks: UInt64?

    /// A feed's counts and schedule: what `twfeed status` shows, without the tweets.
    public struct FeedCounts: Codable, Sendable, Equatable {
        public var enabled: Bool
        public var tweets: Int
        public var newestId: String?
        public var newestAt: Date?
        public var lastPollAt: Date?
        public var lastSuccessAt: Date?
        public var lastError: String?
        public var nextPollAt: Date?
        public var rateLimitLimit: Int?
        public var rateLimitRemaining: Int?
        public var rateLimitResetAt: Date?

        public init(enabled: Bool, stats: FeedStats, sync: SyncState) {
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

        public var stats: FeedStats {
            FeedStats(tweets: tweets, newestID: newestId.flatMap(TweetID.init), newestCreatedAt: newestAt)
        }

        public func sync(_ feed: Feed) -> SyncState {
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
    public struct Counts: Codable, Sendable, Equatable {
        public var at: Date
        public var feeds: [String: FeedCounts]
        public var outbox: [String: Int]
        public var oldestPendingAt: Date?
        public var imageFiles: Int
        public var imageBytes: Int64
        public var databasePath: String
        public var databaseBytes: Int64
        /// The signed-in account the feeds' counts belong to (nil before the first lookup).
        public var account: AccountName?

        /// An account as `status` names it: its user id (a string, as ids are in JSON)
        /// and its username.
        public struct AccountName: Codable, Sendable, Equatable {
            public var id: String
            public var username: String?
        }

        public init(at: Date, feeds: [String: FeedCounts], outbox: [String: Int], oldestPendingAt: Date?,
                    imageFiles: Int, imageBytes: Int64, databasePath: String, databaseBytes: Int64,
                    account: AccountName? = nil) {
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

    public var counts: Counts?
    /// True while the credentials hold no access token: the daemon runs but does not
    /// poll or post (after `twfeed logout`).
    public var signedOut: Bool?
    /// The credentials file the daemon reads: `twfeed login`/`logout` signal the daemon
    /// only when it reads the file they wrote.
    public var credentialsPath: String?

    public init(pid: Int32, startedAt: Date, heartbeatAt: Date, dialect: String, lastCycle: String? = nil) {
        self.pid = pid
        self.startedAt = startedAt
        self.heartbeatAt = heartbeatAt
        self.dialect = dialect
        self.lastCycle = lastCycle
    }

    /// `$RUNTIME_DIRECTORY/status.json` under systemd, else beside the database.
    public static func path(config: TwfeedConfig, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first {
            return "\(runtime)/status.json"
        }
        return config.storage.database + ".status.json"
    }

    /// Where the systemd unit's daemon (`RuntimeDirectory=twfeed`) keeps its snapshot.
    public static let systemdPath = "/run/twfeed/status.json"

    /// The snapshot a reader should look at: the daemon's own path when it exists,
    /// else the systemd unit's, so that `twfeed status` run by any user (who has no
    /// `$RUNTIME_DIRECTORY` and perhaps no config) finds the service's daemon.
    public static func readerPath(config: TwfeedConfig, environment: [String: String] = ProcessInfo.processInfo.environment,
                                  systemdPath: String = StatusSnapshot.systemdPath) -> String {
        let own = path(config: config, environment: environment)
        if FileManager.default.fileExists(atPath: own) || !FileManager.default.fileExists(atPath: systemdPath) { return own }
        return systemdPath
    }

    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        try AtomicFile.write(try encoder.encode(self), to: path, mode: 0o644)
    }

    public static func read(from path: String) -> StatusSnapshot? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(StatusSnapshot.self, from: data)
    }

    /// Whether the daemon that wrote the snapshot still runs: its pid is alive AND is
    /// that daemon (same start time, or the holder of the database's lock). A stale pid
    /// reused by another process is not running, and is never signalled.
    public var processAlive: Bool {
        ProcessLiveness.isDaemon(pid, startTicks: processStartTicks, database: counts?.databasePath)
    }
}
