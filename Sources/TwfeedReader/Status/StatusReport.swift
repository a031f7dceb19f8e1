import Foundation
import TwfeedBase
import TwfeedCore
import TwfeedStatus
import TwfeedStore

/// The answer to `twfeed status`: built from the daemon's snapshot file and the
/// database, both read without disturbing the running daemon.
package struct StatusReport: Sendable {
    package struct FeedStatus: Sendable {
        package var feed: Feed
        package var enabled: Bool
        package var stats: FeedStats
        package var sync: SyncState
    }

    package let snapshot: StatusSnapshot?
    package let running: Bool
    package let now: Date
    package let feeds: [FeedStatus]
    package let outbox: [OutboxState: Int]
    package let oldestPendingAgeSeconds: Double?
    package let imageFiles: Int
    package let imageBytes: Int64
    package let databasePath: String
    package let databaseBytes: Int64
    /// Where the counts came from: `database` (read directly), `snapshot` (the
    /// daemon's world-readable status file, for users who cannot open the private
    /// database), or `none`.
    package let countsFrom: String
    /// The signed-in account whose feeds are counted, nil before the first lookup.
    package let account: StatusSnapshot.Counts.AccountName?
    /// Decided from the rest when the report is built; the fields are constants, so it
    /// cannot fall out of step with them.
    package let health: Health
    /// What the API charged, from the ledger (it does not move the health).
    package let spend: SpendCounts?

    init(
        snapshot: StatusSnapshot?,
        running: Bool,
        now: Date,
        feeds: [FeedStatus],
        outbox: [OutboxState: Int],
        oldestPendingAgeSeconds: Double?,
        imageFiles: Int,
        imageBytes: Int64,
        databasePath: String,
        databaseBytes: Int64,
        countsFrom: String,
        account: StatusSnapshot.Counts.AccountName? = nil,
        spend: SpendCounts? = nil
    ) {
        self.snapshot = snapshot
        self.running = running
        self.now = now
        self.feeds = feeds
        self.outbox = outbox
        self.oldestPendingAgeSeconds = oldestPendingAgeSeconds
        self.imageFiles = imageFiles
        self.imageBytes = imageBytes
        self.databasePath = databasePath
        self.databaseBytes = databaseBytes
        self.countsFrom = countsFrom
        self.account = account
        self.spend = spend
        health = Health(
            running: running,
            heartbeatAge: snapshot.map { now.timeIntervalSince($0.heartbeatAt) },
            signedOut: snapshot?.signedOut == true,
            anEnabledFeedFailed: feeds.contains { $0.enabled && $0.sync.lastError != nil },
            billingStopped: !(spend?.billingState.isHealthy ?? true),
            notPermitted: !(spend?.refusals.isEmpty ?? true)
        )
    }

    /// A heartbeat older than this reads as a hung daemon.
    package static let staleAfter: Double = StatusSnapshot.heartbeatInterval * 3

    /// - Parameter database: the store of `config.storage.database` when the caller has
    ///   it open already (the web reader, on every page): read instead of opening it again.
    /// - Parameter stored: what a page read of that store with its posts, in the same
    ///   transaction (`StorePage.counts`): used instead of reading again.
    package static func collect(
        config: TwfeedConfig,
        statusPath: String,
        now: Date = Date(),
        database: StoreReader? = nil,
        stored: StoredCounts? = nil
    ) async throws -> StatusReport {
        let snapshot = StatusSnapshot.read(from: statusPath)
        let running = snapshot?.processAlive ?? false
        // A snapshot may come from another daemon than this config's (the systemd
        // service's, read by a user without its config): its database is the one to show.
        let databasePath = snapshot?.counts?.databasePath ?? config.storage.database
        if Self.canRead(databasePath) {
            do {
                // The same counts the daemon's heartbeat puts in the snapshot, read fresh.
                var readConfig = config
                readConfig.storage.database = databasePath
                let open = databasePath == config.storage.database ? database : nil
                var counts: StatusSnapshot.Counts
                if let stored, open != nil, stored.feeds.count == Feed.polled.count {
                    counts = StatusSnapshot.Counts(config: readConfig, stored: stored, now: now, previous: nil)
                } else {
                    counts = try await StatusSnapshot.Counts.read(
                        config: readConfig,
                        database: open ?? StoreReader.open(path: databasePath),
                        now: now,
                        previous: nil,
                        full: true
                    )
                }
                if let published = snapshot?.counts {
                    // The running daemon knows which feeds its own config enables.
                    for (feed, entry) in published.feeds { counts.feeds[feed]?.enabled = entry.enabled }
                    if !FileManager.default.isReadableFile(atPath: config.storage.imageCache) {
                        (counts.imageFiles, counts.imageBytes) = (published.imageFiles, published.imageBytes)
                    }
                }
                return report(counts, countsFrom: "database", snapshot: snapshot, running: running, now: now, config: config)
            } catch {
                // Unreadable after all (permissions, a lock, corruption): fall back.
                if snapshot?.counts == nil { throw error }
            }
        }
        if let counts = snapshot?.counts {
            return report(counts, countsFrom: "snapshot", snapshot: snapshot, running: running, now: now, config: config)
        }
        let feeds = Feed.polled.map {
            FeedStatus(feed: $0, enabled: config.feeds[$0]?.enabled ?? false, stats: FeedStats(tweets: 0), sync: SyncState(feed: $0))
        }
        let (files, bytes) = StatusSnapshot.Counts.directorySize(config.storage.imageCache)
        return StatusReport(
            snapshot: snapshot,
            running: running,
            now: now,
            feeds: feeds,
            outbox: [:],
            oldestPendingAgeSeconds: nil,
            imageFiles: files,
            imageBytes: bytes,
            databasePath: databasePath,
            databaseBytes: 0,
            countsFrom: "none"
        )
    }

    /// The daemon's own status, from its live snapshot (`StatusBoard`) with no read of the
    /// store: what its pages' header shows. Nil until the first heartbeat has counted.
    package static func live(_ snapshot: StatusSnapshot, config: TwfeedConfig, now: Date) -> StatusReport? {
        guard let counts = snapshot.counts else { return nil }
        return report(counts, countsFrom: "snapshot", snapshot: snapshot, running: true, now: now, config: config)
    }

    private static func report(
        _ counts: StatusSnapshot.Counts,
        countsFrom: String,
        snapshot: StatusSnapshot?,
        running: Bool,
        now: Date,
        config: TwfeedConfig
    ) -> StatusReport {
        let feeds = Feed.polled.map { feed in
            let entry = counts.feeds[feed]
            return FeedStatus(
                feed: feed,
                enabled: entry?.enabled ?? config.feeds[feed]?.enabled ?? false,
                stats: entry?.stats ?? FeedStats(tweets: 0),
                sync: entry?.sync(feed) ?? SyncState(feed: feed)
            )
        }
        return StatusReport(
            snapshot: snapshot,
            running: running,
            now: now,
            feeds: feeds,
            outbox: counts.outbox,
            oldestPendingAgeSeconds: counts.oldestPendingAt.map { max(0, now.timeIntervalSince($0)) },
            imageFiles: counts.imageFiles,
            imageBytes: counts.imageBytes,
            databasePath: counts.databasePath,
            databaseBytes: counts.databaseBytes,
            countsFrom: countsFrom,
            account: counts.account,
            spend: counts.spend
        )
    }

    /// Whether this user may open the database: it exists, and it is theirs. Opening
    /// someone else's database (root reading the systemd service's) could leave WAL
    /// files the daemon cannot open, so the snapshot is read instead.
    static func canRead(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return info.st_uid == geteuid() && access(path, R_OK) == 0
    }

    package var heartbeatAge: Double? { snapshot.map { now.timeIntervalSince($0.heartbeatAt) } }

    /// INTERFACE.md's `status --json` object.
    package var json: JSONValue {
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
                "lastError": status.sync.lastError.map { .string($0.description) } ?? .null,
                "nextPollAt": time(status.sync.nextPollAt),
                "rateLimitRemaining": int(status.sync.rateLimit?.remaining),
                "rateLimitResetAt": time(status.sync.rateLimit?.resetAt),
                "permitted": .bool(spend?.refusal(of: status.feed) == nil),
                "refusal": spend?.refusal(of: status.feed).map { .string($0.reason) } ?? .null,
                "gaps": int(spend?.gaps[status.feed] ?? 0),
            ])
        }
        var outboxObject: [String: JSONValue] = [:]
        for state in OutboxState.allCases { outboxObject[state.rawValue] = int(outbox[state] ?? 0) }
        outboxObject["oldestPendingAgeSeconds"] = oldestPendingAgeSeconds.map { .number(String(Int($0))) } ?? .null
        let accountObject: JSONValue =
            account.map { account in
                .object(["id": .string(account.id.description), "username": account.username.map { .string($0) } ?? .null])
            } ?? .null
        return .object([
            "daemon": .object([
                "running": .bool(running),
                "pid": running ? int(snapshot.map { Int($0.pid) }) : .null,
                "startedAt": running ? time(snapshot?.startedAt) : .null,
                "uptimeSeconds": running ? int(snapshot.map { Int(now.timeIntervalSince($0.startedAt)) }) : .null,
                "heartbeatAgeSeconds": running ? int(heartbeatAge.map { Int($0) }) : .null,
                "signedOut": .bool(running && snapshot?.signedOut == true),
                "lastCycle": running ? (snapshot?.lastCycle.map { .string($0) } ?? .null) : .null,
            ]),
            "account": accountObject,
            "countsFrom": .string(countsFrom),
            "health": .string(health.name),
            "feeds": .object(feedObjects),
            "outbox": .object(outboxObject),
            "images": .object(["files": int(imageFiles), "bytes": .number(String(imageBytes))]),
            "database": .object(["path": .string(databasePath), "bytes": .number(String(databaseBytes))]),
            "billing": billingJSON,
        ])
    }

    /// `"billing"`: from the ledger; without one (no database to read), nothing spent.
    var billingJSON: JSONValue {
        if let spend { return spend.billingJSON }
        return .object([
            "state": .string("ok"), "since": .null, "until": .null, "detail": .null,
            "todayUSD": .number("0"), "cycleSpentUSD": .number("0"), "budgetUSD": .null,
        ])
    }
}
