import Foundation

/// The answer to `twfeed status`: built from the daemon's snapshot file and the
/// database, both read without disturbing the running daemon.
public struct StatusReport: Sendable {
    public enum Health: Int32, Sendable {
        case healthy = 0
        case degraded = 1
        case notRunning = 3
    }

    public struct FeedStatus: Sendable {
        public var feed: Feed
        public var enabled: Bool
        public var stats: FeedStats
        public var sync: SyncState
    }

    public var snapshot: StatusSnapshot?
    public var running: Bool
    public var now: Date
    public var feeds: [FeedStatus]
    public var outbox: [String: Int]
    public var oldestPendingAgeSeconds: Double?
    public var imageFiles: Int
    public var imageBytes: Int64
    public var databasePath: String
    public var databaseBytes: Int64

    /// A heartbeat older than this reads as a hung daemon.
    public static let staleAfter: Double = Heartbeat.interval * 3

    public static func collect(config: TwfeedConfig, statusPath: String, now: Date = Date()) throws -> StatusReport {
        let snapshot = StatusSnapshot.read(from: statusPath)
        let running = snapshot?.processAlive ?? false
        var feeds: [FeedStatus] = []
        var outbox: [String: Int] = [:]
        var oldestPending: Double?
        let databasePath = config.storage.database
        if FileManager.default.fileExists(atPath: databasePath) {
            let database = try AppDatabase.open(path: databasePath)
            for feed in Feed.allCases {
                feeds.append(FeedStatus(
                    feed: feed, enabled: config.feeds[feed]?.enabled ?? false,
                    stats: try database.feedStats(feed), sync: try database.syncState(feed)))
            }
            (outbox, oldestPending) = try database.outboxCounts(now: now)
        } else {
            feeds = Feed.allCases.map {
                FeedStatus(feed: $0, enabled: config.feeds[$0]?.enabled ?? false,
                           stats: FeedStats(tweets: 0), sync: SyncState(feed: $0))
            }
        }
        let (files, bytes) = Self.directorySize(config.storage.imageCache)
        return StatusReport(
            snapshot: snapshot, running: running, now: now, feeds: feeds, outbox: outbox,
            oldestPendingAgeSeconds: oldestPending, imageFiles: files, imageBytes: bytes,
            databasePath: databasePath, databaseBytes: Self.fileSize(databasePath) + Self.fileSize(databasePath + "-wal"))
    }

    public var heartbeatAge: Double? { snapshot.map { now.timeIntervalSince($0.heartbeatAt) } }

    public var health: Health {
        guard running else { return .notRunning }
        if let age = heartbeatAge, age > Self.staleAfter { return .degraded }
        if feeds.contains(where: { $0.enabled && $0.sync.lastError != nil }) { return .degraded }
        return .healthy
    }

    /// INTERFACE.md's `status --json` object.
    public var json: JSONValue {
        func time(_ date: Date?) -> JSONValue { date.map { .string(Timestamp.iso8601($0)) } ?? .null }
        func int(_ value: Int?) -> JSONValue { value.map { .number(String($0)) } ?? .null }
        var feedObjects: [String: JSONValue] = [:]
        for status in feeds {
            feedObjects[status.feed.rawValue] = .object([
                "enabled": .bool(status.enabled),
                "tweets": int(status.stats.tweets),
                "newestId": status.stats.newestID.map { .string($0.description) } ?? .null,
                "newestAt": time(status.stats.newestCreatedAt),
                "lastPollAt": time(status.sync.lastPollAt),
                "lastSuccessAt": time(status.sync.lastSuccessAt),
                "lastError": status.sync.lastError.map { .string($0) } ?? .null,
                "nextPollAt": time(status.sync.nextPollAt),
                "rateLimitRemaining": int(status.sync.rateLimit?.remaining),
                "rateLimitResetAt": time(status.sync.rateLimit?.resetAt),
            ])
        }
        var outboxObject: [String: JSONValue] = [:]
        for state in OutboxState.allCases { outboxObject[state.rawValue] = int(outbox[state.rawValue] ?? 0) }
        outboxObject["oldestPendingAgeSeconds"] = oldestPendingAgeSeconds.map { .number(String(Int($0))) } ?? .null
        return .object([
            "daemon": .object([
                "running": .bool(running),
                "pid": running ? int(snapshot.map { Int($0.pid) }) : .null,
                "startedAt": running ? time(snapshot?.startedAt) : .null,
                "uptimeSeconds": running ? int(snapshot.map { Int(now.timeIntervalSince($0.startedAt)) }) : .null,
                "heartbeatAgeSeconds": running ? int(heartbeatAge.map { Int($0) }) : .null,
            ]),
            "health": .string(["healthy", "degraded", "", "not-running"][Int(health.rawValue)]),
            "feeds": .object(feedObjects),
            "outbox": .object(outboxObject),
            "images": .object(["files": int(imageFiles), "bytes": .number(String(imageBytes))]),
            "database": .object(["path": .string(databasePath), "bytes": .number(String(databaseBytes))]),
        ])
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    static func directorySize(_ path: String) -> (Int, Int64) {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return (0, 0) }
        var files = 0
        var bytes: Int64 = 0
        while let name = enumerator.nextObject() as? String {
            var info = stat()
            if stat("\(path)/\(name)", &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                files += 1
                bytes += Int64(info.st_size)
            }
        }
        return (files, bytes)
    }
}
