import Foundation
import GRDB

/// Where a feed's sync stands. `newestID` advances only once a whole range is stored;
/// while a range is being paged, `pendingTop`/`pendingBottom` record how far it got, so
/// an error or a kill resumes below `pendingBottom` with nothing lost.
public struct SyncState: Sendable, Equatable {
    public var feed: Feed
    public var newestID: TweetID?
    public var pendingTop: TweetID?
    public var pendingBottom: TweetID?
    public var lastPollAt: Date?
    public var lastSuccessAt: Date?
    public var lastError: String?
    public var failures: Int = 0
    public var rateLimit: RateLimit?
    public var nextPollAt: Date?

    public init(feed: Feed) { self.feed = feed }

    init(row: Row, feed: Feed) {
        self.feed = feed
        newestID = (row["newestId"] as Int64?).map(TweetID.init)
        pendingTop = (row["pendingTopId"] as Int64?).map(TweetID.init)
        pendingBottom = (row["pendingBottomId"] as Int64?).map(TweetID.init)
        lastPollAt = (row["lastPollAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        lastSuccessAt = (row["lastSuccessAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        lastError = row["lastError"]
        failures = row["failures"] ?? 0
        if let limit = row["rateLimitLimit"] as Int?, let remaining = row["rateLimitRemaining"] as Int?,
           let reset = row["rateLimitResetAt"] as Double? {
            rateLimit = RateLimit(limit: limit, remaining: remaining, resetAt: Date(timeIntervalSince1970: reset))
        }
        nextPollAt = (row["nextPollAt"] as Double?).map(Date.init(timeIntervalSince1970:))
    }

    func save(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO syncState (feed, newestId, pendingTopId, pendingBottomId, lastPollAt, lastSuccessAt,
                    lastError, failures, rateLimitLimit, rateLimitRemaining, rateLimitResetAt, nextPollAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(feed) DO UPDATE SET newestId = excluded.newestId, pendingTopId = excluded.pendingTopId,
                    pendingBottomId = excluded.pendingBottomId, lastPollAt = excluded.lastPollAt,
                    lastSuccessAt = excluded.lastSuccessAt, lastError = excluded.lastError, failures = excluded.failures,
                    rateLimitLimit = excluded.rateLimitLimit, rateLimitRemaining = excluded.rateLimitRemaining,
                    rateLimitResetAt = excluded.rateLimitResetAt, nextPollAt = excluded.nextPollAt
                """,
            arguments: [
                feed.rawValue, newestID?.rawValue, pendingTop?.rawValue, pendingBottom?.rawValue,
                lastPollAt?.timeIntervalSince1970, lastSuccessAt?.timeIntervalSince1970, lastError, failures,
                rateLimit?.limit, rateLimit?.remaining, rateLimit?.resetAt.timeIntervalSince1970,
                nextPollAt?.timeIntervalSince1970,
            ])
    }
}

extension AppDatabase {
    public func syncState(_ feed: Feed) throws -> SyncState {
        try read { db in try Self.syncState(feed, db) }
    }

    static func syncState(_ feed: Feed, _ db: Database) throws -> SyncState {
        if let row = try Row.fetchOne(db, sql: ReaderQueries.syncState.sql, arguments: [feed.rawValue]) {
            return SyncState(row: row, feed: feed)
        }
        return SyncState(feed: feed)
    }

    public func saveSyncState(_ state: SyncState) throws {
        try write { db in try state.save(db) }
    }
}
