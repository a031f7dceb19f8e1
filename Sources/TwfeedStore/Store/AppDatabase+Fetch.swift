import Foundation
import GRDB
import TwfeedBilling
import TwfeedCore

/// The posts twfeed lacks and someone looked for (faults), and what the API said of
/// those it could not give: the fetcher's queue.
extension AppDatabase {
    /// How long a post the API called gone is not asked for again.
    package static let unavailableFor: TimeInterval = 86_400

    /// Asks for these posts, except those stored or called gone within a day. A look
    /// (`asked`) outranks a prefetch already queued for the same post. Returns how many
    /// are newly asked for.
    @discardableResult
    package func requestFetch(_ ids: [TweetID], reason: FetchReason, now: Date) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try await write { db in try Self.requestFetch(ids, reason: reason, now: now, db) }
    }

    static func requestFetch(_ ids: [TweetID], reason: FetchReason, now: Date, _ db: Database) throws -> Int {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO fetchRequest (tweetId, reason, requestedAt)
                SELECT :id, :reason, :now
                WHERE NOT EXISTS (SELECT 1 FROM tweet WHERE id = :id)
                  AND NOT EXISTS (SELECT 1 FROM unavailableTweet WHERE tweetId = :id AND checkedAt > :recent)
                ON CONFLICT(tweetId) DO UPDATE SET reason = excluded.reason
                    WHERE excluded.reason = 'asked' AND fetchRequest.reason <> 'asked'
                """
        )
        var added = 0
        for id in Set(ids) {
            let before = db.totalChangesCount
            try statement.execute(arguments: [
                "id": id.rawValue, "reason": reason.rawValue, "now": now.timeIntervalSince1970,
                "recent": now.timeIntervalSince1970 - unavailableFor,
            ])
            added += db.totalChangesCount - before
        }
        return added
    }

    /// Stores what a lookup found, as posts of their own (no feed tag), with their authors
    /// and media, and the whole text of the reposts of them stored before; remembers the ids it said are gone; ends the requests for `asked`; and
    /// records what it cost, all in one transaction.
    package func storeLookup(
        found: TimelinePage,
        unavailable: [TweetID: String],
        asked: [TweetID],
        now: Date,
        bill: BillableAnswer,
        prices: Prices
    ) async throws {
        try await write { db in
            let page = TimelinePage(tweets: [], referencedTweets: found.referencedTweets + found.tweets, authors: found.authors, nextPageToken: nil)
            _ = try Self.insert(page, feed: .home, now: now, db)
            try Self.recomposeReposts(of: page.referencedTweets, db)
            try Self.recordUnavailable(unavailable, now: now, db)
            let done = try db.cachedStatement(sql: "DELETE FROM fetchRequest WHERE tweetId = ?")
            for id in asked { try done.execute(arguments: [id.rawValue]) }
            _ = try Self.recordSpend(bill, prices: prices, now: now, db)
        }
    }
}

extension AppDatabase {
    /// What the API said of posts it would not give (a lookup's ids, or what a page
    /// points at), with when: not asked for again within `unavailableFor`.
    static func recordUnavailable(_ unavailable: [TweetID: String], now: Date, _ db: Database) throws {
        guard !unavailable.isEmpty else { return }
        let gone = try db.cachedStatement(
            sql: """
                INSERT INTO unavailableTweet (tweetId, reason, checkedAt) VALUES (?, ?, ?)
                ON CONFLICT(tweetId) DO UPDATE SET reason = excluded.reason, checkedAt = excluded.checkedAt
                """
        )
        for (id, reason) in unavailable { try gone.execute(arguments: [id.rawValue, String(reason.prefix(300)), now.timeIntervalSince1970]) }
    }
}

/// A post the fetcher is to read, and why.
package struct PendingFetch: Sendable, Equatable {
    package var id: TweetID
    package var reason: FetchReason

    package init(id: TweetID, reason: FetchReason) {
        self.id = id
        self.reason = reason
    }
}

extension StoreReading {
    /// The next posts to fetch, looks first, oldest first: at most `limit`, none the
    /// API called gone within a day.
    package func pendingFetches(limit: Int, now: Date) async throws -> [PendingFetch] {
        try await read { db in try AppDatabase.pendingFetches(limit: limit, now: now, db) }
    }

    /// What the API said of these posts it could not give (any time: a page says why a
    /// post is missing however long ago it was asked).
    package func unavailableReasons(_ ids: [TweetID]) async throws -> [TweetID: String] {
        try await read { db in try AppDatabase.unavailableReasons(ids, db) }
    }
}

extension AppDatabase {
    static func pendingFetches(limit: Int, now: Date, _ db: Database) throws -> [PendingFetch] {
        try Row.fetchAll(
            db,
            sql: StoreQueries.pendingFetches.sql,
            arguments: ["recent": now.timeIntervalSince1970 - unavailableFor, "limit": limit]
        ).map { row in PendingFetch(id: TweetID(row[0] as Int64), reason: FetchReason(rawValue: row[1]) ?? .prefetch) }
    }

    static func unavailableReasons(_ ids: [TweetID], _ db: Database) throws -> [TweetID: String] {
        let statement = try db.cachedStatement(sql: StoreQueries.unavailableTweet.sql)
        var reasons: [TweetID: String] = [:]
        for id in ids {
            if let reason = try String.fetchOne(statement, arguments: [id.rawValue]) { reasons[id] = reason }
        }
        return reasons
    }
}
