import Foundation
import GRDB
import TwfeedCore

/// What storing an archive's posts (or likes) did, post by post (docs/SCHEMA.md, "The
/// archive's feeds").
package struct ArchiveCounts: Sendable, Equatable {
    /// Not stored before: the post's row and its tag were written.
    package var new = 0
    /// Stored before (from the API, as a post another one points at, or by an earlier
    /// import) and changed: it gained the feed's tag, or (your posts only) its stored text
    /// was a cut of the archive's whole text and became whole, or it was stored as a like
    /// with no author and the archive's posts say it is yours.
    package var updated = 0
    /// Stored before, tagged, and whole already: nothing was written.
    package var unchanged = 0

    package init(new: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.new = new
        self.updated = updated
        self.unchanged = unchanged
    }

    /// Every post the archive gave, whatever was done with it.
    package var total: Int { new + updated + unchanged }

    package static func + (lhs: Self, rhs: Self) -> Self {
        Self(new: lhs.new + rhs.new, updated: lhs.updated + rhs.updated, unchanged: lhs.unchanged + rhs.unchanged)
    }
}

extension AppDatabase {
    /// Stores one batch of an archive's posts under `feed` (`posts` or `likes`) for
    /// `account`, in one IMMEDIATE transaction: a batch of a few thousand holds the write
    /// lock for a moment, so the daemon and the reader go on between batches.
    ///
    /// A post already stored keeps every field it has (the API's say more than the
    /// archive's: the author of a like, counts, a v2 conversation) and gains the tag. Of
    /// your posts (`posts`), a stored text that is a cut of the archive's (what is left once
    /// a trailing "…" goes is the start of the archive's longer text, a note's whole text)
    /// takes the whole one. A like changes nothing of a stored post but its tags: its
    /// `fullText` is the raw text, which ends in the photo's `t.co` link where the API's
    /// text (and your post's, without its media link) does not, so it would read as
    /// "longer" and replace the right text with a worse one. A new post is stored with
    /// its links and media (each picture gets its `photo` row, as the API's do) and joins
    /// its conversation. With `dryRun` the same writes are rolled back: the counts are
    /// exact and nothing changes.
    ///
    /// - Parameter storedBefore: with `dryRun`, the ids the same import stores before
    ///   these (its posts, whose writes were rolled back too): one of them is counted as
    ///   the real import would find it, stored already.
    package func storeArchived(
        _ tweets: [Tweet],
        feed: Feed,
        account: UserID,
        now: Date,
        dryRun: Bool = false,
        storedBefore: Set<TweetID> = []
    ) async throws -> ArchiveCounts {
        precondition(!feed.isPolled, "only an archive's feeds are imported")
        return try await writeWithoutTransaction { db in
            var counts = ArchiveCounts()
            // Each insert fires the search index's trigger, so SQLite keeps the pages it
            // changes in a statement journal (to undo that one statement), by default in
            // a temporary file: 442 MB written for 20,000 posts and 4,000 likes imported
            // twice, 125 MB with it in memory (docs/PERFORMANCE.md, "Importing the
            // archive"). Back to the default after the batch: other writes are unchanged.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            defer { try? db.execute(sql: "PRAGMA temp_store = DEFAULT") }
            try db.inTransaction(.immediate) {
                counts = try Self.storeArchived(tweets, feed: feed, account: account.rawValue, now: now, storedBefore: storedBefore, db)
                return dryRun ? .rollback : .commit
            }
            return counts
        }
    }

    static func storeArchived(
        _ tweets: [Tweet],
        feed: Feed,
        account: Int64,
        now: Date,
        storedBefore: Set<TweetID> = [],
        _ db: Database
    ) throws -> ArchiveCounts {
        let fetchedAt = now.timeIntervalSince1970
        // Ascending: the tags (and the rows below) go into their B-trees in key order.
        let batch = Set(tweets.map(\.id.rawValue))
        let ids = "[" + batch.sorted().map(String.init).joined(separator: ",") + "]"
        let parents = Set(tweets.compactMap(\.inReplyToID?.rawValue)).subtracting(batch)
        // Read before anything is written: which posts (and replies' parents) are
        // stored, whether each carries the feed's tag already (true), their conversations.
        var stored: [TweetID: Bool] = [:]
        var conversationOf: [TweetID: TweetID] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: StoreQueries.archiveBatchStored.sql),
            arguments: [account, feed.rawValue, "[" + (batch.union(parents)).map(String.init).joined(separator: ",") + "]"]
        )
        while let row = try rows.next() {
            let id = TweetID(row[0] as Int64)
            stored[id] = row[1] as Bool
            conversationOf[id] = (row[2] as Int64?).map(TweetID.init)
        }
        var seen: Set<TweetID> = []
        var added: [Tweet] = []
        var repeated: [Bool] = []
        repeated.reserveCapacity(tweets.count)
        for tweet in tweets {
            let first = seen.insert(tweet.id).inserted
            repeated.append(!first)
            if first && stored[tweet.id] == nil { added.append(tweet) }
        }
        let conversations = archiveConversations(added, stored: conversationOf)
        try insertArchived(added, conversations: conversations, fetchedAt: fetchedAt, db)
        try db.execute(
            sql: "INSERT OR IGNORE INTO feedMembership (account, feed, tweetId, addedAt) SELECT ?, ?, value, ? FROM json_each(?)",
            arguments: [account, feed.rawValue, fetchedAt, ids]
        )
        // A post stored before, or twice in the batch: one of your posts may take the
        // archive's whole text or your id, row by row as it comes (the last word is the
        // last copy's). A like only gains its tag.
        let mayChangeText = feed == .posts
        let whole = try db.cachedStatement(sql: wholeTextSQL)
        // A post stored as a like (no author) that your archive says is yours.
        let named = try db.cachedStatement(sql: "UPDATE tweet SET authorId = ? WHERE id = ? AND authorId = 0")
        var counts = ArchiveCounts()
        for (tweet, again) in zip(tweets, repeated) {
            let isNew = !again && stored[tweet.id] == nil
            // The tag was added by the first copy of a post not tagged before.
            var changed = !again && stored[tweet.id] != true
            if !isNew && mayChangeText {
                try whole.execute(arguments: ["text": tweet.text, "id": tweet.id.rawValue])
                changed = changed || db.changesCount > 0
                if tweet.authorID != .unknown {
                    try named.execute(arguments: [tweet.authorID.rawValue, tweet.id.rawValue])
                    changed = changed || db.changesCount > 0
                }
            }
            if isNew && !storedBefore.contains(tweet.id) {
                counts.new += 1
            } else if changed || isNew {
                counts.updated += 1
            } else {
                counts.unchanged += 1
            }
        }
        try followArchiveConversations(conversations, db)
        try insertMedia(added, now: now, db)
        try insertLinks(added.filter { !$0.links.isEmpty }, db)
        return counts
    }

    /// The batch's new posts in one `INSERT … SELECT` from a temporary table, in id
    /// order. Row by row, each INSERT was its own statement inside the transaction, and
    /// FTS5 writes what it holds in memory as a new segment at every statement's
    /// savepoint (and at every rowid not above the last, as an archive's newest-first
    /// order gives): each post became a segment of the search index, merged again and
    /// again, 40 % of the store's CPU (docs/PERFORMANCE.md, "Importing the archive"). In
    /// one statement the search trigger still indexes each row, and FTS5 writes one
    /// segment per batch.
    static func insertArchived(_ tweets: [Tweet], conversations: [TweetID: TweetID], fetchedAt: Double, _ db: Database) throws {
        guard !tweets.isEmpty else { return }
        try db.execute(sql: archiveBatchTableSQL)
        let fill = try db.makeStatement(sql: "INSERT INTO temp.archiveBatch VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for tweet in tweets {
            try fill.execute(arguments: [
                tweet.id.rawValue, tweet.authorID.rawValue, tweet.createdAt.timeIntervalSince1970, tweet.text,
                tweet.inReplyToID?.rawValue, try repliedUsername(tweet, db), tweet.retweetOfID?.rawValue, tweet.quotedID?.rawValue,
                // A post that replies to nothing is its own conversation (as settling
                // would say); a reply's is worked out before (`archiveConversations`).
                (tweet.conversationID ?? (tweet.inReplyToID == nil ? tweet.id : conversations[tweet.id]))?.rawValue, tweet.rawJSON,
            ])
        }
        try db.execute(
            sql: """
                INSERT INTO tweet (id, authorId, createdAt, text, inReplyToId, inReplyToUsername, retweetOfId, quotedId, conversationId,
                    raw, fetchedAt)
                SELECT id, authorId, createdAt, text, inReplyToId, inReplyToUsername, retweetOfId, quotedId, conversationId, raw, ?
                FROM temp.archiveBatch ORDER BY id
                """,
            arguments: [fetchedAt]
        )
        try db.execute(sql: "DROP TABLE temp.archiveBatch")
    }

    /// One batch's new posts on their way into `tweet`: the connection's own, in memory
    /// (`temp_store`), gone with the batch's transaction.
    static let archiveBatchTableSQL = """
        CREATE TEMP TABLE archiveBatch (
            id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL, createdAt DOUBLE NOT NULL, text TEXT NOT NULL,
            inReplyToId INTEGER, inReplyToUsername TEXT, retweetOfId INTEGER, quotedId INTEGER, conversationId INTEGER,
            raw TEXT NOT NULL)
        """

    /// A stored text that is a cut of one of your archived posts' text: once its trailing
    /// "…" and spaces go, it is non-empty, shorter, and the archive's text begins with it
    /// (a v1.1 answer's long post, a like of your own stored with its cut text). Anything
    /// else is kept. Never run for a like (see `storeArchived`).
    static let wholeTextSQL = """
        UPDATE tweet SET text = :text
        WHERE id = :id AND length(text) < length(:text) AND length(rtrim(text, ' …')) > 0
            AND substr(:text, 1, length(rtrim(text, ' …'))) = rtrim(text, ' …')
        """
}

extension AppDatabase {
    /// An archive's photo, put in the cache by the importer: the picture URL of `tweet`'s
    /// media whose last path part is `mediaName` (the archive names its file
    /// `TWEETID-NAME.EXT` after it) and the file already cached for it; nil when the post
    /// shows no such picture.
    package func archivedPhoto(tweet: TweetID, mediaName: String) async throws -> (url: String, file: String?)? {
        try await read { db in
            for row in try Row.fetchAll(db, sql: StoreQueries.mediaOfTweet.sql, arguments: [tweet.rawValue]) {
                guard let url = row["imageURL"] as String?, url.split(separator: "/").last.map(String.init) == mediaName else { continue }
                return (url, row["file"] as String?)
            }
            return nil
        }
    }
}
