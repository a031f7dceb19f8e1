import GRDB
import TwfeedCore

extension AppDatabase {

    /// The ids of the matching tweets, newest first (the plan test runs these). CROSS
    /// JOIN keeps the FTS walk outside (SQLite never reorders it), so the hits come in
    /// rowid order and LIMIT stops the walk, whatever the statistics say.
    static let searchSQL = """
        SELECT rowid FROM tweetSearch WHERE tweetSearch MATCH :match ORDER BY rowid DESC LIMIT :limit
        """
    static let searchInFeedSQL = """
        SELECT tweetSearch.rowid FROM tweetSearch
        CROSS JOIN feedMembership m ON m.account = :account AND m.feed = :feed AND m.tweetId = tweetSearch.rowid
        WHERE tweetSearch MATCH :match ORDER BY tweetSearch.rowid DESC LIMIT :limit
        """
    /// The users a term names (username or name); `from:` by username, any case.
    static let usersMatchingSQL = "SELECT rowid FROM userSearch WHERE userSearch MATCH ?"
    static let usersNamedSQL = "SELECT id FROM user WHERE username = ? COLLATE NOCASE"

    /// The MATCH for `tweetSearch`, or nil when `from:` names nobody stored (nothing
    /// can match).
    static func searchMatch(_ query: SearchQuery, _ db: Database) throws -> String? {
        var fromAuthors: [Int64]?
        if !query.authors.isEmpty {
            let ids = try query.authors.flatMap { try Int64.fetchAll(db, sql: usersNamedSQL, arguments: [$0]) }
            guard !ids.isEmpty else { return nil }
            fromAuthors = ids
        }
        let authorsMatching = try query.terms.map {
            try Int64.fetchAll(db, sql: usersMatchingSQL, arguments: [SearchMatch.users($0)])
        }
        return SearchMatch.tweets(query.terms, authorsMatching: authorsMatching, fromAuthors: fromAuthors)
    }

    /// The FeedItems of these tweets, in the order given. One primary-key lookup each
    /// (the caller holds at most `limit` ids), so no sort and no scan.
    static func feedItems(
        ids: [Int64],
        account: Int64,
        avatarPath: (_ file: String) -> String?,
        _ db: Database
    ) throws -> [FeedItem] {
        var authors = AuthorCache(db: db)
        return try feedItems(ids: ids, account: account, authors: &authors, avatarPath: avatarPath, db)
    }

    /// The same, reading authors through the caller's cache.
    static func feedItems(
        ids: [Int64],
        account: Int64,
        authors: inout AuthorCache,
        avatarPath: (_ file: String) -> String?,
        _ db: Database
    ) throws -> [FeedItem] {
        guard !ids.isEmpty else { return [] }
        let statement = try db.cachedStatement(sql: feedItemByIDSQL)
        return try ids.compactMap { id in
            guard let row = try Row.fetchOne(statement, arguments: ["id": id, "account": account]) else { return nil }
            var item = feedItem(row, avatarPath: avatarPath)
            try attachGraph(&item, row, authors: &authors, avatarPath: avatarPath, db)
            return item
        }
    }

    static let feedItemByIDSQL = """
        SELECT \(feedItemColumns),
            (SELECT group_concat(m2.feed) FROM feedMembership m2 WHERE m2.tweetId = t.id AND m2.account = :account) AS feeds
        FROM tweet t
        LEFT JOIN user u ON u.id = t.authorId
        LEFT JOIN profileImage p ON p.authorId = t.authorId
        \(graphJoins)
        WHERE t.id = :id
        """
}

/// One step of merging the full-text indexes' segments.
package struct SearchMergeStep: Sendable, Equatable {
    /// Whether the step merged anything (false: nothing left to merge).
    package var merged = false
    /// From BEGIN to the end of COMMIT: how long the step held the write lock.
    package var transactionSeconds: Double = 0
}

extension AppDatabase {
    /// Up to `pages` pages of FTS5 merge work on each search index, in one short
    /// IMMEDIATE transaction (FTS5's `merge` command: levels with at least four segments).
    /// FTS5 reports work done as a change count of two or more (sqlite.org/fts5.html).
    package func mergeSearchIndexes(pages: Int) async throws -> SearchMergeStep {
        try await writeWithoutTransaction { db in
            let started = ContinuousClock.now
            var step = SearchMergeStep()
            try db.inTransaction(.immediate) {
                for table in ["tweetSearch", "userSearch"] {
                    let before = db.totalChangesCount
                    try db.execute(sql: "INSERT INTO \(table) (\(table), rank) VALUES ('merge', ?)", arguments: [max(pages, 1)])
                    if db.totalChangesCount - before >= 2 { step.merged = true }
                }
                return .commit
            }
            step.transactionSeconds = (ContinuousClock.now - started).inSeconds
            return step
        }
    }
}

extension StoreReading {
    /// One stored tweet as the pages show it (the post a reply answers), nil when the
    /// store does not hold it.
    package func feedItem(_ id: TweetID, avatarPath: @escaping @Sendable (_ file: String) -> String? = { _ in nil }) async throws -> FeedItem? {
        try await read { db in
            try AppDatabase.feedItems(ids: [id.rawValue], account: AppDatabase.currentAccount(db), avatarPath: avatarPath, db).first
        }
    }
}

extension StoreReading {
    /// `twfeed search`: stored tweets (any feed's, and the tweets they refer to) that
    /// match the query, newest first, shown like `feed` shows them.
    ///
    /// Costs O(limit) index steps plus the users the terms name: FTS5 walks the tweet
    /// index in descending rowid (= tweet id, so newest first) and stops at the limit;
    /// with a feed, each hit costs one primary-key probe of `feedMembership`.
    package func search(
        _ query: SearchQuery,
        feed: Feed?,
        limit: Int,
        avatarPath: @escaping @Sendable (_ file: String) -> String? = { _ in nil }
    ) async throws -> [FeedItem] {
        try await read { db in try AppDatabase.search(query, feed: feed, limit: limit, avatarPath: avatarPath, db) }
    }
}

extension AppDatabase {
    static func search(_ query: SearchQuery, feed: Feed?, limit: Int, avatarPath: (_ file: String) -> String?, _ db: Database) throws -> [FeedItem] {
        guard let match = try searchMatch(query, db) else { return [] }
        let account = try currentAccount(db)
        var arguments: StatementArguments = ["match": match, "limit": limit]
        if let feed { arguments += ["feed": feed.rawValue, "account": account] }
        let ids = try Int64.fetchAll(db, sql: feed == nil ? searchSQL : searchInFeedSQL, arguments: arguments)
        return try feedItems(ids: ids, account: account, avatarPath: avatarPath, db)
    }
}
