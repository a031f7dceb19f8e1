import Foundation
import GRDB
import TwfeedCore

extension AppDatabase {
    /// Stores one page in one transaction: authors, referenced tweets, the feed's
    /// tweets and their membership, and the sync state that says how far the range got.
    /// A re-fetched tweet updates its row; it is never duplicated.
    ///
    /// - Returns: how many of the page's tweets were new to the feed.
    @discardableResult
    package func storePage(_ page: TimelinePage, feed: Feed, state: SyncState, now: Date) async throws -> Int {
        try await write { db in try Self.storePage(page, feed: feed, state: state, now: now, db) }
    }

    static func storePage(_ page: TimelinePage, feed: Feed, state: SyncState, now: Date, _ db: Database) throws -> Int {
        let added = try insert(page, feed: feed, account: try owner(state.account, db), now: now, db)
        try state.save(db)
        return added
    }

    /// - Parameter account: whose feed tags the page's tweets get (its user id).
    static func insert(_ page: TimelinePage, feed: Feed, account: Int64 = 0, now: Date, _ db: Database) throws -> Int {
        let fetchedAt = now.timeIntervalSince1970
        let userStatement = try db.cachedStatement(
            sql: """
                INSERT INTO user (id, username, name, profileImageURL, updatedAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET username = excluded.username, name = excluded.name,
                    profileImageURL = excluded.profileImageURL, updatedAt = excluded.updatedAt
                """
        )
        for author in page.authors {
            try userStatement.execute(arguments: [author.id.rawValue, author.username, author.name, author.profileImageURL, fetchedAt])
        }
        let tweetStatement = try db.cachedStatement(
            sql: """
                INSERT INTO tweet (id, authorId, createdAt, text, inReplyToId, inReplyToUsername, retweetOfId, quotedId, conversationId,
                    raw, fetchedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET authorId = excluded.authorId, createdAt = excluded.createdAt, text = excluded.text,
                    inReplyToId = excluded.inReplyToId,
                    inReplyToUsername = coalesce(excluded.inReplyToUsername,
                        CASE WHEN excluded.inReplyToId = tweet.inReplyToId THEN tweet.inReplyToUsername END),
                    retweetOfId = excluded.retweetOfId, quotedId = excluded.quotedId,
                    conversationId = coalesce(excluded.conversationId, tweet.conversationId), raw = excluded.raw, fetchedAt = excluded.fetchedAt
                """
        )
        for tweet in page.referencedTweets + (try composeReposts(page, db)) {
            try tweetStatement.execute(arguments: [
                tweet.id.rawValue, tweet.authorID.rawValue, tweet.createdAt.timeIntervalSince1970, tweet.text,
                tweet.inReplyToID?.rawValue, try repliedUsername(tweet, db), tweet.retweetOfID?.rawValue, tweet.quotedID?.rawValue,
                tweet.conversationID?.rawValue, tweet.rawJSON, fetchedAt,
            ])
        }
        try settleConversations(page.referencedTweets + page.tweets, db)
        try insertMedia(page.referencedTweets + page.tweets, now: now, db)
        try insertLinks(page.referencedTweets + page.tweets, db)
        try recordUnavailable(page.unavailable, now: now, db)
        let memberStatement = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO feedMembership (account, feed, tweetId, addedAt) VALUES (?, ?, ?, ?)
                """
        )
        var added = 0
        for tweet in page.tweets {
            try memberStatement.execute(arguments: [account, feed.rawValue, tweet.id.rawValue, fetchedAt])
            added += db.changesCount
        }
        return added
    }

    /// The handle stored as whom `tweet` answers (`tweet.inReplyToUsername`, v20): what
    /// the answer said of the user itself (v1.1's and the archive's
    /// `in_reply_to_screen_name`, v2's `includes.users`), else the stored user of that id
    /// (a page's users are stored before its posts), else the post's mention of that id.
    /// Nil when it replies to nothing or its answer named nobody. Readers show the stored
    /// parent's author before it.
    static func repliedUsername(_ tweet: Tweet, _ db: Database) throws -> String? {
        guard tweet.inReplyToID != nil, let replied = tweet.repliedUser else { return nil }
        if let username = replied.username { return username }
        if let id = replied.id,
            let stored = try String.fetchOne(db.cachedStatement(sql: StoreQueries.authorByID.sql), arguments: [id.rawValue])
        {
            return stored
        }
        return replied.mentioned
    }

    /// The tweets' media, when the answer had them. A tweet read without them (an answer
    /// that did not ask) keeps what is stored. Each picture gets its `photo` row, or has
    /// its use refreshed: the photo fetcher caches it, the janitor evicts the least
    /// recently used (a picture already cached keeps its file while its URL is shown).
    static func insertMedia(_ tweets: [Tweet], now: Date, _ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO media (tweetId, position, mediaKey, kind, imageURL, width, height, altText)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(tweetId, position) DO UPDATE SET mediaKey = excluded.mediaKey, kind = excluded.kind,
                    imageURL = excluded.imageURL, width = excluded.width, height = excluded.height, altText = excluded.altText
                """
        )
        let photo = try db.cachedStatement(
            sql: """
                INSERT INTO photo (url, lastUsedAt) VALUES (?, ?)
                ON CONFLICT(url) DO UPDATE SET lastUsedAt = max(lastUsedAt, excluded.lastUsedAt)
                """
        )
        let trim = try db.cachedStatement(sql: "DELETE FROM media WHERE tweetId = ? AND position >= ?")
        for tweet in tweets where !tweet.media.isEmpty {
            for (position, media) in tweet.media.enumerated() {
                try statement.execute(arguments: [
                    tweet.id.rawValue, position, media.key, media.kind.rawValue, media.imageURL, media.width, media.height, media.altText,
                ])
                if let url = media.imageURL { try photo.execute(arguments: [url, now.timeIntervalSince1970]) }
            }
            try trim.execute(arguments: [tweet.id.rawValue, tweet.media.count])
        }
    }
}

extension AppDatabase {
    /// The tweets' links, as the client read them from the answer (`Tweet.links`): they
    /// replace what is stored, as the stored answer they come from is replaced.
    static func insertLinks(_ tweets: [Tweet], _ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO link (tweetId, position, url, expandedURL, displayURL) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(tweetId, position) DO UPDATE SET url = excluded.url, expandedURL = excluded.expandedURL,
                    displayURL = excluded.displayURL
                """
        )
        let trim = try db.cachedStatement(sql: "DELETE FROM link WHERE tweetId = ? AND position >= ?")
        for tweet in tweets {
            for (position, link) in tweet.links.enumerated() {
                try statement.execute(arguments: [tweet.id.rawValue, position, link.url, link.expandedURL, link.displayURL])
            }
            try trim.execute(arguments: [tweet.id.rawValue, tweet.links.count])
        }
    }
}

extension StoreReading {
    /// Which of these ids the feed already holds for `account` (by default the signed-in one).
    package func knownIDs(_ ids: [TweetID], feed: Feed, account: AccountScope = .signedIn) async throws -> Set<TweetID> {
        try await read { db in try AppDatabase.knownIDs(ids, feed: feed, account: account, db) }
    }
}

extension StoreReading {
    /// Which of these users are stored and were refreshed at or after `since`: authors a
    /// page need not pay for again (each user returned costs the user read price).
    package func freshUsers(_ ids: [UserID], since: Date) async throws -> Set<UserID> {
        guard !ids.isEmpty else { return [] }
        return try await read { db in
            let fresh = try Int64.fetchAll(
                db,
                sql: StoreQueries.freshUsers(count: ids.count).sql,
                arguments: StatementArguments([since.timeIntervalSince1970] as [any DatabaseValueConvertible] + ids.map(\.rawValue))
            )
            return Set(fresh.map(UserID.init))
        }
    }
}

extension AppDatabase {
    static func knownIDs(_ ids: [TweetID], feed: Feed, account: AccountScope, _ db: Database) throws -> Set<TweetID> {
        guard !ids.isEmpty else { return [] }
        let known = try Int64.fetchAll(
            db,
            sql: StoreQueries.knownIDs(count: ids.count).sql,
            arguments: StatementArguments([try owner(account, db), feed.rawValue] as [any DatabaseValueConvertible] + ids.map(\.rawValue))
        )
        return Set(known.map(TweetID.init))
    }
}
