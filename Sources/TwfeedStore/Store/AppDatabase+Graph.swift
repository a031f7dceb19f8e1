import Foundation
import GRDB
import TwfeedCore

/// What a tweet points at, read with it: its media, the reposted original, the quoted
/// post, the parent of a reply; and a conversation around a post. Every step is a
/// primary-key lookup or a range of an index, so a page of 50 costs a few hundred
/// B-tree probes whatever the store holds.
extension AppDatabase {
    /// One level of what `item` points at. For a repost, the original's quote and parent.
    static func attachGraph(
        _ item: inout FeedItem,
        authors: inout AuthorCache,
        avatarPath: (_ file: String) -> String?,
        _ db: Database
    ) throws {
        item.media = try media(of: item.tweet.id, imagePath: avatarPath, db)
        if let original = item.tweet.retweetOfID {
            item.retweetOf = try embedded(original, authors: &authors, avatarPath: avatarPath, db)
        }
        let shown = item.retweetOf?.tweet ?? item.tweet
        if let quoted = shown.quotedID {
            item.quoted = try embedded(quoted, authors: &authors, avatarPath: avatarPath, db)
        }
        if let parent = shown.inReplyToID {
            item.inReplyTo = try replyContext(parent, authors: &authors, avatarPath: avatarPath, db)
        }
        let faults = item.faults
        if !faults.isEmpty { item.unavailable = try unavailableReasons(faults, db) }
    }

    static func storedTweet(_ id: TweetID, _ db: Database) throws -> Tweet? {
        try Row.fetchOne(db.cachedStatement(sql: ReaderQueries.tweetByID.sql), arguments: [id.rawValue]).map(tweet)
    }

    static func embedded(
        _ id: TweetID,
        authors: inout AuthorCache,
        avatarPath: (_ file: String) -> String?,
        _ db: Database
    ) throws -> EmbeddedTweet? {
        guard let tweet = try storedTweet(id, db) else { return nil }
        let (author, avatar) = try authors.lookup(tweet.authorID, avatarPath: avatarPath)
        return EmbeddedTweet(tweet: tweet, author: author, avatarPath: avatar, media: try media(of: id, imagePath: avatarPath, db))
    }

    static func replyContext(
        _ id: TweetID,
        authors: inout AuthorCache,
        avatarPath: (_ file: String) -> String?,
        _ db: Database
    ) throws -> ReplyContext {
        guard let parent = try storedTweet(id, db) else { return ReplyContext(id: id, stored: false, username: nil, excerpt: nil) }
        let (author, _) = try authors.lookup(parent.authorID, avatarPath: avatarPath)
        let line = parent.text.replacingOccurrences(of: "\n", with: " ")
        let excerpt = line.count > ReplyContext.excerptLength ? String(line.prefix(ReplyContext.excerptLength - 1)) + "…" : line
        return ReplyContext(id: id, stored: true, username: author?.username, excerpt: excerpt)
    }

    /// A tweet's media in order, each with its cached picture (the `photo` row of its
    /// URL) made a path by `imagePath`, as an avatar's is: nil while it is not on disk.
    static func media(of id: TweetID, imagePath: (_ file: String) -> String?, _ db: Database) throws -> [MediaItem] {
        try Row.fetchAll(db.cachedStatement(sql: ReaderQueries.mediaOfTweet.sql), arguments: [id.rawValue]).compactMap { row in
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
    package func conversation(_ id: TweetID, avatarPath: (_ file: String) -> String? = { _ in nil }) throws -> Conversation? {
        try read { db in
            let account = try AppDatabase.currentAccount(db)
            guard let tweet = try AppDatabase.feedItems(ids: [id.rawValue], account: account, avatarPath: avatarPath, db).first else {
                return nil
            }
            var ancestors: [Conversation.Ancestor] = []
            var parent = tweet.tweet.inReplyToID
            var seen: Set<TweetID> = [id]
            while let next = parent, ancestors.count < Conversation.maxDepth, seen.insert(next).inserted {
                if let item = try AppDatabase.feedItems(ids: [next.rawValue], account: account, avatarPath: avatarPath, db).first {
                    ancestors.append(.stored(item))
                    parent = item.tweet.inReplyToID
                } else {
                    ancestors.append(.missing(next, unavailable: try AppDatabase.unavailableReasons([next], db)[next]))
                    parent = nil
                }
            }
            let replyIDs = try Int64.fetchAll(
                db.cachedStatement(sql: ReaderQueries.repliesTo.sql),
                arguments: [id.rawValue, Conversation.maxReplies]
            )
            let replies = try AppDatabase.feedItems(ids: replyIDs, account: account, avatarPath: avatarPath, db)
            return Conversation(tweet: tweet, ancestors: ancestors, replies: replies)
        }
    }
}
