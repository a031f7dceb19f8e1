import Foundation
import GRDB

/// A tweet as readers see it: with its author and every feed that carries it.
public struct FeedItem: Sendable, Equatable {
    public var tweet: Tweet
    public var feeds: [Feed]
    public var author: Author?
    /// The cached profile image on disk, nil until it is fetched.
    public var avatarPath: String?
}

/// Counts for `twfeed status`.
public struct FeedStats: Sendable, Equatable {
    public var tweets: Int
    public var newestID: TweetID?
    public var newestCreatedAt: Date?
}

extension AppDatabase {
    /// The signed-in account's tweets of the feed, newest first. Reads only the database: works offline and
    /// while the daemon writes.
    ///
    /// - Parameter avatarPath: turns the author's cached image file (its name under the
    ///   cache folder, as the database records it) into the path to show, or nil when it
    ///   is not on disk. The store knows names, not the cache folder: the caller does.
    /// - Parameter before: only tweets with a smaller id (paging: the last id shown), or
    ///   nil for the newest.
    public func feedItems(_ feed: Feed, limit: Int, before: TweetID? = nil,
                          avatarPath: (_ file: String) -> String? = { _ in nil }) throws -> [FeedItem] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: ReaderQueries.feedItems.sql, arguments: [
                "account": try Self.currentAccount(db), "feed": feed.rawValue,
                "before": before?.rawValue ?? Int64.max, "limit": limit,
            ])
            return rows.map { Self.feedItem($0, avatarPath: avatarPath) }
        }
    }

    /// O(log n): the count is kept by triggers (feedCount), the newest id is the primary
    /// key's last entry.
    public func feedStats(_ feed: Feed) throws -> FeedStats {
        try read { db in
            let row = try Row.fetchOne(db, sql: ReaderQueries.feedStats.sql, arguments: [
                "account": try Self.currentAccount(db), "feed": feed.rawValue,
            ])!
            return FeedStats(
                tweets: row["tweets"] ?? 0,
                newestID: (row["newest"] as Int64?).map(TweetID.init),
                newestCreatedAt: (row["newestCreatedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
        }
    }

    /// Every tweet id the feed holds, newest first (tests compare it with the
    /// emulator's ground truth).
    public func memberIDs(_ feed: Feed) throws -> [TweetID] {
        try read { db in
            try Int64.fetchAll(db, sql: ReaderQueries.memberIDs.sql, arguments: [try Self.currentAccount(db), feed.rawValue])
                .map(TweetID.init)
        }
    }

    /// One row of a FeedItem query (the tweet's columns, `username`, `name`,
    /// `profileImageURL`, `avatarFile` and `feeds`, comma-separated) as a FeedItem:
    /// `feed` and `search` show tweets alike.
    static func feedItem(_ row: Row, avatarPath: (_ file: String) -> String?) -> FeedItem {
        let tweet = Tweet(
            id: TweetID(row["id"] as Int64),
            authorID: TweetID(row["authorId"] as Int64),
            createdAt: Date(timeIntervalSince1970: row["createdAt"]),
            text: row["text"],
            inReplyToID: (row["inReplyToId"] as Int64?).map(TweetID.init),
            retweetOfID: (row["retweetOfId"] as Int64?).map(TweetID.init),
            quotedID: (row["quotedId"] as Int64?).map(TweetID.init),
            conversationID: (row["conversationId"] as Int64?).map(TweetID.init),
            rawJSON: row["raw"])
        let feeds = ((row["feeds"] as String?) ?? "").split(separator: ",")
            .compactMap { Feed(rawValue: String($0)) }
            .sorted { Feed.allCases.firstIndex(of: $0)! < Feed.allCases.firstIndex(of: $1)! }
        var author: Author?
        if let username = row["username"] as String? {
            author = Author(id: tweet.authorID, username: username, name: row["name"], profileImageURL: row["profileImageURL"])
        }
        let avatar = (row["avatarFile"] as String?).flatMap(avatarPath)
        return FeedItem(tweet: tweet, feeds: feeds, author: author, avatarPath: avatar)
    }
}
