import Foundation
import GRDB
import TwfeedCore

/// Where a feed's sync stands. `newestID` advances only once a whole range is stored;
/// while a range is being paged, `pendingTop`/`pendingBottom` record how far it got, so
/// an error or a kill resumes below `pendingBottom` with nothing lost.
package struct SyncState: Sendable, Equatable {
    package var feed: Feed
    /// Whose positions these are. Read states carry their account, so a page fetched
    /// for one account is never stored under another; a state made by hand is for
    /// whoever is signed in when it is saved.
    package var account: AccountScope
    package var newestID: TweetID?
    package var pendingTop: TweetID?
    package var pendingBottom: TweetID?
    package var lastPollAt: Date?
    package var lastSuccessAt: Date?
    /// Why the last poll failed or was held; nil after a success. Stored as
    /// `PollFailure.stored` (a row written before it was typed holds the bare line).
    package var lastError: PollFailure?
    package var failures: Int = 0
    package var rateLimit: RateLimit?
    package var nextPollAt: Date?
    /// When `retweets` last walked every page within the API's reach (the slow full walk
    /// that finds old tweets newly retweeted); nil before the first.
    package var lastFullWalkAt: Date?

    package init(feed: Feed, account: AccountScope = .signedIn) {
        self.feed = feed
        self.account = account
    }

    init(row: Row, feed: Feed) {
        self.feed = feed
        account = AppDatabase.scope(row["account"] as Int64)
        newestID = (row["newestId"] as Int64?).map(TweetID.init)
        pendingTop = (row["pendingTopId"] as Int64?).map(TweetID.init)
        pendingBottom = (row["pendingBottomId"] as Int64?).map(TweetID.init)
        lastPollAt = Self.time(row["lastPollAt"])
        lastSuccessAt = Self.time(row["lastSuccessAt"])
        lastError = (row["lastError"] as String?).map(PollFailure.init(stored:))
        failures = Self.integer(row["failures"]).map { min(max($0, 0), 1_000) } ?? 0
        if let limit = Self.integer(row["rateLimitLimit"]), let remaining = Self.integer(row["rateLimitRemaining"]),
            let reset = Self.time(row["rateLimitResetAt"]),
            (0...RateLimit.maxCount).contains(limit), (0...RateLimit.maxCount).contains(remaining)
        {
            rateLimit = RateLimit(limit: limit, remaining: remaining, resetAt: reset)
        }
        nextPollAt = Self.time(row["nextPollAt"])
        lastFullWalkAt = Self.time(row["lastFullWalkAt"])
    }

    /// A stored time, or nil when it is not one: an older version could store +inf or
    /// a huge epoch from a hostile header, and reading it must never trap.
    static func time(_ value: DatabaseValue) -> Date? {
        guard let seconds = Double.fromDatabaseValue(value), seconds.isFinite, seconds >= 0,
            seconds < RateLimit.maxEpoch
        else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// A stored integer, or nil when the column holds something else (a real too big
    /// for Int would trap GRDB's `Int` conversion; its `Int64` one returns nil).
    /// (A `switch` on `value.storage` here crashes the 6.x release optimizer.)
    static func integer(_ value: DatabaseValue) -> Int? {
        Int64.fromDatabaseValue(value).map { Int($0) }
    }

    func save(_ db: Database) throws {
        let owner = try AppDatabase.owner(account, db)
        try db.execute(
            sql: """
                INSERT INTO syncState (account, feed, newestId, pendingTopId, pendingBottomId, lastPollAt, lastSuccessAt,
                    lastError, failures, rateLimitLimit, rateLimitRemaining, rateLimitResetAt, nextPollAt, lastFullWalkAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(account, feed) DO UPDATE SET newestId = excluded.newestId, pendingTopId = excluded.pendingTopId,
                    pendingBottomId = excluded.pendingBottomId, lastPollAt = excluded.lastPollAt,
                    lastSuccessAt = excluded.lastSuccessAt, lastError = excluded.lastError, failures = excluded.failures,
                    rateLimitLimit = excluded.rateLimitLimit, rateLimitRemaining = excluded.rateLimitRemaining,
                    rateLimitResetAt = excluded.rateLimitResetAt, nextPollAt = excluded.nextPollAt,
                    lastFullWalkAt = excluded.lastFullWalkAt
                """,
            arguments: [
                owner, feed.rawValue, newestID?.rawValue, pendingTop?.rawValue, pendingBottom?.rawValue,
                lastPollAt?.timeIntervalSince1970, lastSuccessAt?.timeIntervalSince1970, lastError?.stored, failures,
                rateLimit?.limit, rateLimit?.remaining, rateLimit?.resetAt.timeIntervalSince1970,
                nextPollAt?.timeIntervalSince1970, lastFullWalkAt?.timeIntervalSince1970,
            ]
        )
    }
}

extension AppDatabase {

    static func syncState(_ feed: Feed, account: Int64, _ db: Database) throws -> SyncState {
        if let row = try Row.fetchOne(db, sql: StoreQueries.syncState.sql, arguments: [account, feed.rawValue]) {
            return SyncState(row: row, feed: feed)
        }
        return SyncState(feed: feed, account: scope(account))
    }

    package func saveSyncState(_ state: SyncState) async throws {
        try await write { db in try state.save(db) }
    }

    /// Repairs a feed's stored schedule at start: a value no current version would
    /// store (non-finite, unreadable, or a wait further than `maxWait` ahead of `now`)
    /// is cleared, so a bad header stored by an older version cannot make a crash loop
    /// or a feed that never polls again. Returns what was repaired, for one log line.
    package func repairSyncState(_ feed: Feed, now: Date, maxWait: Double) async throws -> [String] {
        try await write { db in try Self.repairSyncState(feed, now: now, maxWait: maxWait, db) }
    }

    static func repairSyncState(_ feed: Feed, now: Date, maxWait: Double, _ db: Database) throws -> [String] {
        guard let row = try Row.fetchOne(db, sql: StoreQueries.syncState.sql, arguments: [try Self.currentAccount(db), feed.rawValue])
        else { return [] }
        var state = SyncState(row: row, feed: feed)
        var repaired: [String] = []
        let horizon = now.addingTimeInterval(maxWait)
        for column in ["lastPollAt", "lastSuccessAt", "nextPollAt", "rateLimitResetAt", "lastFullWalkAt"]
        where !(row[column] as DatabaseValue).isNull && SyncState.time(row[column]) == nil {
            repaired.append(column)
        }
        for column in ["failures", "rateLimitLimit", "rateLimitRemaining"]
        where !(row[column] as DatabaseValue).isNull && SyncState.integer(row[column]) == nil {
            repaired.append(column)
        }
        if !(row["rateLimitLimit"] as DatabaseValue).isNull && state.rateLimit == nil && !repaired.contains("rateLimitResetAt") {
            repaired.append("rateLimit")
        }
        if let next = state.nextPollAt, next > horizon {
            state.nextPollAt = nil
            repaired.append("nextPollAt")
        }
        if let reset = state.rateLimit?.resetAt, reset > horizon {
            state.rateLimit = nil
            repaired.append("rateLimitResetAt")
        }
        if !repaired.isEmpty { try state.save(db) }
        return Array(Set(repaired)).sorted()
    }
}

extension StoreReading {
    /// The feed's sync state for `account` (a user id), by default the signed-in one's.
    package func syncState(_ feed: Feed, account: AccountScope = .signedIn) async throws -> SyncState {
        try await read { db in try AppDatabase.syncState(feed, account: AppDatabase.owner(account, db), db) }
    }
}
