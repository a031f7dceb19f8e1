import Foundation
import GRDB
import TwfeedCore

/// What a tweet points at, read with it: its media, the reposted original, the quoted
/// post, the parent of a reply; and a conversation around a post. The original, the
/// quote and the parent come in the feed query's own row (`graphJoins`: three
/// primary-key probes inside SQLite), media only for the tweets that have some, so a
/// page of 50 costs a few hundred B-tree probes whatever the store holds.
extension AppDatabase {
    /// What a feed's tweet `t` points at, joined to its row: the reposted original `r`,
    /// then the quoted post `q` and the parent `pt` of the post shown (the original of a
    /// repost when it is stored, else the tweet itself). Each a lookup by primary key;
    /// a post not stored leaves its columns null.
    static let graphJoins = """
        LEFT JOIN tweet r ON r.id = t.retweetOfId
        LEFT JOIN tweet q ON q.id = CASE WHEN r.id IS NULL THEN t.quotedId ELSE r.quotedId END
        LEFT JOIN tweet pt ON pt.id = CASE WHEN r.id IS NULL THEN t.inReplyToId ELSE r.inReplyToId END
        """
    /// The joined posts' columns, right after the tweet's own (`tweetColumns`): the
    /// original's and the quote's as a tweet's, the parent's id, author, text and deletion.
    static let graphColumns = "\(tweetColumns("r", joined: true)), \(tweetColumns("q", joined: true)), pt.id, pt.authorId, pt.text, pt.deletedAt"
    static let graphColumnCount = 2 * tweetColumnCount + 4

    /// One level of what `item` points at, from its row (`tweetColumns("t")`, then
    /// `graphColumns`). For a repost, the original's quote and parent.
    static func attachGraph(
        _ item: inout FeedItem,
        _ row: Row,
        authors: inout AuthorCache,
        avatarPath: (_ file: String) -> String?,
        _ db: Database
    ) throws {
        if hasMedia(row, at: 0) { item.media = try media(of: item.tweet.id, imagePath: avatarPath, db) }
        let original = tweetColumnCount
        if item.tweet.retweetOfID != nil {
            item.retweetOf = try embedded(row, at: original, authors: &authors, avatarPath: avatarPath, db)
        }
        if item.shownQuotedID != nil {
            item.quoted = try embedded(row, at: original + tweetColumnCount, authors: &authors, avatarPath: avatarPath, db)
        }
        if let parent = item.shownInReplyToID {
            item.inReplyTo = try replyContext(
                parent,
                named: item.shownRepliedUsername,
                row,
                at: original + 2 * tweetColumnCount,
                authors: &authors,
                avatarPath: avatarPath,
                db
            )
        }
        if item.hasFaults { item.unavailable = try unavailableReasons(item.faults, db) }
    }

    static func storedTweet(_ id: TweetID, _ db: Database) throws -> Tweet? {
        try Row.fetchOne(db.cachedStatement(sql: StoreQueries.tweetByID.sql), arguments: [id.rawValue]).map { tweet($0) }
    }

    /// The joined post whose `tweetColumns` start at `start`, nil when it is not stored.
    static func embedded(
        _ row: Row,
        at start: Int,
        authors: inout AuthorCache,
        avatarPath: (_ file: String) -> String?,
        _ db: Database
    ) throws -> EmbeddedTweet? {
        guard !row.hasNull(atIndex: start) else { return nil }
        let tweet = tweet(row, at: start)
        let author = try authors.entry(tweet.authorID, avatarPath: avatarPath)
        let media = hasMedia(row, at: start) ? try media(of: tweet.id, imagePath: avatarPath, db) : []
        return EmbeddedTweet(tweet: tweet, author: author.author, avatarPath: author.avatar, media: media)
    }

    /// The parent `id` from its joined id, author, text and deletion at `start`. Whom it
    /// answers is the stored parent's author (a rename is then current), else `named`:
    /// what the reply's own answer said (a parent not stored, or its author not stored).
    static func replyContext(
        _ id: TweetID,
        named: String?,
        _ row: Row,
        at start: Int,
        authors: inout AuthorCache,
        avatarPath: (_ file: String) -> String?,
        _ db: Database
    ) throws -> ReplyContext {
        guard !row.hasNull(atIndex: start) else { return ReplyContext(id: id, stored: false, username: named, excerpt: nil) }
        let username = try authors.entry(UserID(row[start + 1] as Int64), avatarPath: avatarPath).author?.username ?? named
        // A parent the account deleted is named, its text not shown.
        if !row.hasNull(atIndex: start + 3) {
            return ReplyContext(id: id, stored: true, username: username, excerpt: nil, deleted: true)
        }
        return ReplyContext(id: id, stored: true, username: username, excerpt: excerpt(try shownText(id, row[start + 2], db)))
    }

    /// A post's text with its links as the post shows them (`TweetLink.shownText`): the
    /// `t.co` links replaced from its stored links. Only a text with a link costs the read.
    static func shownText(_ id: TweetID, _ text: String, _ db: Database) throws -> String {
        guard text.contains("://") else { return text }
        return TweetLink.shownText(text, links: try links(of: id, db))
    }

    /// A parent's text on one line, cut to `ReplyContext.excerptLength` characters. Only
    /// the characters up to the cut are walked, not the whole text.
    static func excerpt(_ text: String) -> String {
        let line = oneLine(text)
        let length = ReplyContext.excerptLength
        // A line of no more bytes than the length has no more characters either.
        guard line.utf8.count > length, let end = line.index(line.startIndex, offsetBy: length, limitedBy: line.endIndex), end != line.endIndex
        else { return line }
        return String(line[..<line.index(before: end)]) + "…"
    }

    /// The text with each line feed made a space (on scalars: Foundation's replacing,
    /// which this replaced, took a tenth of a full dump's time).
    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\n")) else { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.lazy.map { $0 == "\n" ? " " : $0 })
        return String(scalars)
    }

    /// A tweet's media in order, each with its cached picture (the `photo` row of its
    /// URL) made a path by `imagePath`, as an avatar's is: nil while it is not on disk.
    static func media(of id: TweetID, imagePath: (_ file: String) -> String?, _ db: Database) throws -> [MediaItem] {
        try Row.fetchAll(db.cachedStatement(sql: StoreQueries.mediaOfTweet.sql), arguments: [id.rawValue]).compactMap { row in
            guard let kind = Media.Kind(rawValue: row[1]) else { return nil }
            let media = Media(key: row[0], kind: kind, imageURL: row[2], width: row[3], height: row[4], altText: row[5])
            let file: String? = row[6]
            return MediaItem(media: media, file: file, path: file.flatMap(imagePath))
        }
    }
}

/// A post with the posts above it up to the root and the replies stored below it:
/// `twfeed show` and the reader's `/tweet/ID`.
package struct Conversation: Sendable, Equatable {
    /// A post above the one shown: stored, or only its id (not fetched yet).
    package enum Ancestor: Sendable, Equatable {
        case stored(FeedItem)
        /// Not stored; `unavailable` is what the API said when it could not give it.
        case missing(TweetID, unavailable: String?)
    }

    package var tweet: FeedItem
    /// From the parent up to the root.
    package var ancestors: [Ancestor]
    /// The direct replies stored, oldest first.
    package var replies: [FeedItem]

    /// How far up a conversation is walked: deeper threads show their top as missing.
    package static let maxDepth = 50
    /// How many replies a page shows.
    package static let maxReplies = 100
}

extension StoreReading {
    /// The first post not stored on the way up from `id`'s parent, when it lies within
    /// `depth` steps (the parent is one): what the prefetch asks for. O(depth)
    /// primary-key lookups.
    package func missingAncestor(of id: TweetID, depth: Int) async throws -> TweetID? {
        try await read { db in
            var current = try AppDatabase.storedTweet(id, db)
            var steps = 0
            var seen: Set<TweetID> = [id]
            while let tweet = current, let parent = tweet.inReplyToID, steps < depth, seen.insert(parent).inserted {
                steps += 1
                guard let stored = try AppDatabase.storedTweet(parent, db) else { return parent }
                current = stored
            }
            return nil
        }
    }

    /// The conversation around `id`, nil when the post itself is not stored. O(depth +
    /// replies): each ancestor is a primary-key lookup, the replies a range of the
    /// `tweet_inReplyTo` index.
    package func conversation(_ id: TweetID, avatarPath: @escaping @Sendable (_ file: String) -> String? = { _ in nil }) async throws -> Conversation?
    {
        try await read { db in try AppDatabase.conversation(id, avatarPath: avatarPath, db) }
    }
}

extension AppDatabase {
    static func conversation(_ id: TweetID, avatarPath: (_ file: String) -> String?, _ db: Database) throws -> Conversation? {
        let account = try currentAccount(db)
        // One author cache for the whole conversation: its posts share authors.
        var authors = AuthorCache(db: db)
        func items(_ ids: [Int64]) throws -> [FeedItem] {
            try feedItems(ids: ids, account: account, authors: &authors, avatarPath: avatarPath, db)
        }
        guard let tweet = try items([id.rawValue]).first else {
            return nil
        }
        var ancestors: [Conversation.Ancestor] = []
        var parent = tweet.tweet.inReplyToID
        var seen: Set<TweetID> = [id]
        while let next = parent, ancestors.count < Conversation.maxDepth, seen.insert(next).inserted {
            if let item = try items([next.rawValue]).first {
                ancestors.append(.stored(item))
                parent = item.tweet.inReplyToID
            } else {
                ancestors.append(.missing(next, unavailable: try unavailableReasons([next], db)[next]))
                parent = nil
            }
        }
        let replyIDs = try Int64.fetchAll(
            db.cachedStatement(sql: StoreQueries.repliesTo.sql),
            arguments: [id.rawValue, Conversation.maxReplies]
        )
        let replies = try items(replyIDs)
        return Conversation(tweet: tweet, ancestors: ancestors, replies: replies)
    }
}
