import Foundation
import GRDB
import TwfeedCore

/// A tweet as readers see it: with its author and every feed that carries it.
/// Its `tweet.rawJSON` is left empty (`{}`): readers never show the API's object, and
/// reading it would double what a full dump moves.
package struct FeedItem: Sendable, Equatable {
    package var tweet: Tweet
    package var feeds: [Feed]
    package var author: Author?
    /// The cached profile image on disk, nil until it is fetched.
    package var avatarPath: String?
    /// What the tweet points at, read with it (one level; `AppDatabase.Graph`).
    package var media: [MediaItem] = []
    /// The reposted original, nil when this is no repost or the original is not stored
    /// (a fault: `tweet.retweetOfID` says which).
    package var retweetOf: EmbeddedTweet?
    /// The quoted post (of the original, for a repost), nil when none or not stored.
    package var quoted: EmbeddedTweet?
    /// The post replied to (of the original, for a repost).
    package var inReplyTo: ReplyContext?
    /// What the API said of the faults it could not give (deleted, protected, suspended).
    package var unavailable: [TweetID: String] = [:]

    package init(tweet: Tweet, feeds: [Feed], author: Author?, avatarPath: String?) {
        self.tweet = tweet
        self.feeds = feeds
        self.author = author
        self.avatarPath = avatarPath
    }

    /// The post shown: the original of a repost when it is stored, else the tweet itself.
    package var shown: EmbeddedTweet {
        retweetOf ?? EmbeddedTweet(tweet: tweet, author: author, avatarPath: avatarPath, media: media)
    }

    /// The id of a post it points at that is not stored: what the reader shows as "not
    /// fetched yet" and a fetcher would ask for.
    package var faults: [TweetID] {
        var ids: [TweetID] = []
        if let id = tweet.retweetOfID, retweetOf == nil { ids.append(id) }
        if let id = shownQuotedID, quoted == nil { ids.append(id) }
        if let reply = inReplyTo, !reply.stored { ids.append(reply.id) }
        return ids
    }

    /// Whether `faults` has any, without building it (asked of every item read).
    package var hasFaults: Bool {
        (tweet.retweetOfID != nil && retweetOf == nil) || (shownQuotedID != nil && quoted == nil) || inReplyTo?.stored == false
    }

    /// The post shown's quote and parent (the original's, for a stored repost), read
    /// without copying the post.
    var shownQuotedID: TweetID? { retweetOf == nil ? tweet.quotedID : retweetOf?.tweet.quotedID }
    var shownInReplyToID: TweetID? { retweetOf == nil ? tweet.inReplyToID : retweetOf?.tweet.inReplyToID }
    /// Whom the post shown answers, as its own answer named them.
    var shownRepliedUsername: String? { (retweetOf?.tweet ?? tweet).repliedUser?.handle }
}

/// A photo, video or GIF with its cached picture.
package struct MediaItem: Sendable, Equatable {
    package var media: Media
    /// The cached picture's name in the image cache (`ab/cd/<sha256>.<ext>`), nil until
    /// the photo fetcher has it.
    package var file: String?
    /// What the reader made of `file` (an absolute path for `feed --json`, a URL for a
    /// page), nil while the picture is not on disk.
    package var path: String?

    package init(media: Media, file: String? = nil, path: String?) {
        self.media = media
        self.file = file
        self.path = path
    }
}

/// A post shown inside another: a reposted original, a quoted post.
package struct EmbeddedTweet: Sendable, Equatable {
    package var tweet: Tweet
    package var author: Author?
    package var avatarPath: String?
    package var media: [MediaItem]

    package init(tweet: Tweet, author: Author?, avatarPath: String?, media: [MediaItem]) {
        self.tweet = tweet
        self.author = author
        self.avatarPath = avatarPath
        self.media = media
    }
}

/// What a reply answers: the parent's id and whom it answers, and when the parent is
/// stored, a line of it.
package struct ReplyContext: Sendable, Equatable {
    package var id: TweetID
    package var stored: Bool
    /// The stored parent's author (a rename is then current), else whom the reply's own
    /// answer named (`Tweet.repliedUser`, docs/SCHEMA.md `inReplyToUsername`); nil when
    /// neither is known.
    package var username: String?
    /// The parent's text, cut to `excerptLength` characters; nil once it is deleted.
    package var excerpt: String?
    /// The account deleted the parent (`twfeed delete`): its text is not shown.
    package var deleted: Bool

    package static let excerptLength = 80

    package init(id: TweetID, stored: Bool, username: String?, excerpt: String?, deleted: Bool = false) {
        self.id = id
        self.stored = stored
        self.username = username
        self.excerpt = excerpt
        self.deleted = deleted
    }
}

/// Counts for `twfeed status`.
package struct FeedStats: Sendable, Equatable {
    package var tweets: Int
    package var newestID: TweetID?
    package var newestCreatedAt: Date?

    package init(tweets: Int = 0, newestID: TweetID? = nil, newestCreatedAt: Date? = nil) {
        self.tweets = tweets
        self.newestID = newestID
        self.newestCreatedAt = newestCreatedAt
    }
}

extension AppDatabase {

    /// A tweet's columns under `alias`, read by position by `tweet(_:at:)`, with whether
    /// it has media rows (`hasMedia(_:at:)`): one probe of the media table's key inside
    /// SQLite, so that the media query runs only for the few tweets that have some (it
    /// was a sixth of a full dump's time when it ran for every tweet).
    ///
    /// - Parameter joined: the tweet is a LEFT JOIN's, often absent: the probe is skipped then.
    static func tweetColumns(_ alias: String, joined: Bool = false) -> String {
        let media = "EXISTS (SELECT 1 FROM media md WHERE md.tweetId = \(alias).id)"
        return """
            \(alias).id, \(alias).authorId, \(alias).createdAt, \(alias).text, \(alias).inReplyToId, \(alias).retweetOfId, \(alias).quotedId, \(alias).conversationId,
                \(joined ? "CASE WHEN \(alias).id IS NULL THEN 0 ELSE \(media) END" : media), \(alias).deletedAt, \(alias).inReplyToUsername
            """
    }
    /// How many columns `tweetColumns` selects.
    static let tweetColumnCount = 11
    /// The columns of a feed's tweet rows.
    static let feedTweetColumns = tweetColumns("t")

    /// The tweet whose `tweetColumns` start at `start`.
    static func tweet(_ row: Row, at start: Int = 0) -> Tweet {
        func id(_ index: Int) -> TweetID? { (row[start + index] as Int64?).map(TweetID.init) }
        return Tweet(
            id: TweetID(row[start] as Int64),
            authorID: UserID(row[start + 1] as Int64),
            createdAt: Date(timeIntervalSince1970: row[start + 2]),
            text: row[start + 3],
            inReplyToID: id(4),
            repliedUser: RepliedUser(username: row[start + 10]),
            retweetOfID: id(5),
            quotedID: id(6),
            conversationID: id(7),
            deletedAt: (row[start + 9] as Double?).map(Date.init(timeIntervalSince1970:))
        )
    }

    /// The media probe of the `tweetColumns` that start at `start`.
    static func hasMedia(_ row: Row, at start: Int) -> Bool { row[start + 8] }

    /// The feeds each tweet of a feed is in: the feed itself, and the others' tags walked
    /// alongside it, newest first (`feedTagsBelow`, one cursor per other feed), as a merge:
    /// no probe per tweet. A tweet's tag is found when the other walk reaches its id; each
    /// walk reads the other feed's tags down to the last tweet read, which for a page are
    /// those of the same stretch of time.
    struct OtherFeedTags {
        let feed: Feed
        var walks: [(feed: Feed, cursor: FastDatabaseValueCursor<Int64>, head: Int64?)] = []
        /// The lists, by which other feeds hold the tweet (a bit per feed of `Feed.allCases`), made once.
        var lists: [Int: [Feed]] = [:]

        init(_ feed: Feed, account: Int64, below top: Int64, _ db: Database) throws {
            self.feed = feed
            for other in Feed.allCases where other != feed {
                // Uncached: the walks step at once, each on its own statement.
                let cursor = try Int64.fetchCursor(db, sql: StoreQueries.feedTagsBelow.sql, arguments: [account, other.rawValue, top])
                walks.append((other, cursor, try cursor.next()))
            }
        }

        /// The feeds holding `id`, in `Feed.allCases`' order. Ids must come newest first.
        mutating func feeds(of id: TweetID) throws -> [Feed] {
            var held = 0
            for index in walks.indices {
                while let head = walks[index].head, head > id.rawValue { walks[index].head = try walks[index].cursor.next() }
                if walks[index].head == id.rawValue { held |= 1 << Feed.allCases.firstIndex(of: walks[index].feed)! }
            }
            held |= 1 << Feed.allCases.firstIndex(of: feed)!
            if let known = lists[held] { return known }
            let list = Feed.allCases.indices.filter { held & (1 << $0) != 0 }.map { Feed.allCases[$0] }
            lists[held] = list
            return list
        }
    }

    /// Each author of a feed read once, with the path of their cached picture.
    struct AuthorCache {
        /// A class, not a tuple: a tuple as a dictionary's value is copied through the
        /// runtime's generic witnesses, and a struct's four strings each retained, for
        /// every tweet of a full dump.
        final class Entry {
            let author: Author?
            let avatar: String?

            init(author: Author?, avatar: String?) {
                self.author = author
                self.avatar = avatar
            }
        }

        let db: Database
        var known: [Int64: Entry] = [:]

        mutating func entry(_ id: UserID, avatarPath: (_ file: String) -> String?) throws -> Entry {
            if let found = known[id.rawValue] { return found }
            var author: Author?
            if let row = try Row.fetchOne(db.cachedStatement(sql: StoreQueries.authorByID.sql), arguments: [id.rawValue]) {
                author = Author(id: id, username: row[0], name: row[1], profileImageURL: row[2])
            }
            let file = try String.fetchOne(db.cachedStatement(sql: StoreQueries.imageFileOf.sql), arguments: [id.rawValue])
            let found = Entry(author: author, avatar: file.flatMap(avatarPath))
            known[id.rawValue] = found
            return found
        }
    }

    /// The columns every FeedItem query selects, in the order `feedItem(_:)` reads them
    /// by position (a lookup by name lowercases the name, for every column of every row),
    /// followed by the query's `feeds`. The raw JSON is not read: no reader shows it.
    static let feedItemColumns = "\(feedTweetColumns), \(graphColumns), u.username, u.name, u.profileImageURL, p.file AS avatarFile"
    /// Where a feed row's columns after the tweet's and its graph's start.
    static let afterGraph = tweetColumnCount + graphColumnCount

    /// One row of a FeedItem query (`feedItemColumns`, then `feeds`, comma-separated) as
    /// a FeedItem: `feed` and `search` show tweets alike.
    static func feedItem(_ row: Row, avatarPath: (_ file: String) -> String?) -> FeedItem {
        // The first columns are `feedTweetColumns`', then `graphColumns`.
        let tweet = tweet(row)
        let next = afterGraph
        var author: Author?
        if let username = row[next] as String? {
            author = Author(id: tweet.authorID, username: username, name: row[next + 1], profileImageURL: row[next + 2])
        }
        let avatar = (row[next + 3] as String?).flatMap(avatarPath)
        return FeedItem(tweet: tweet, feeds: Feed.list(row[next + 4]), author: author, avatarPath: avatar)
    }
}

extension StoreReading {
    /// The signed-in account's tweets of the feed, newest first. Reads only the database: works offline and
    /// while the daemon writes.
    ///
    /// - Parameter avatarPath: turns the author's cached image file (its name under the
    ///   cache folder, as the database records it) into the path to show, or nil when it
    ///   is not on disk. The store knows names, not the cache folder: the caller does.
    /// - Parameter before: only tweets with a smaller id (paging: the last id shown), or
    ///   nil for the newest.
    package func feedItems(
        _ feed: Feed,
        limit: Int,
        before: TweetID? = nil,
        avatarPath: @escaping @Sendable (_ file: String) -> String? = { _ in nil }
    ) async throws -> [FeedItem] {
        try await read { db in try AppDatabase.feedItems(feed, limit: limit, before: before, avatarPath: avatarPath, db) }
    }

    /// The same tweets as `feedItems`, handed to `body` one at a time as SQLite steps
    /// through them: a full dump of a million-tweet feed holds one item in memory, not
    /// the whole feed. The read runs on a thread of its own, so what `body` builds is
    /// threaded through it (`state`) and handed back at the end.
    package func forEachFeedItem<State: Sendable>(
        _ feed: Feed,
        limit: Int,
        before: TweetID? = nil,
        avatarPath: @escaping @Sendable (_ file: String) -> String? = { _ in nil },
        into state: State,
        _ body: @escaping @Sendable (inout State, FeedItem) throws -> Void
    ) async throws -> State {
        try await read { db in
            var state = state
            try AppDatabase.forEachFeedItem(feed, limit: limit, before: before, avatarPath: avatarPath, db) { try body(&state, $0) }
            return state
        }
    }

    /// O(log n): the count is kept by triggers (feedCount), the newest id is the primary
    /// key's last entry.
    package func feedStats(_ feed: Feed) async throws -> FeedStats {
        try await read { db in try AppDatabase.feedStats(feed, db) }
    }

    /// Every tweet id the feed holds, newest first (tests compare it with the
    /// emulator's ground truth).
    package func memberIDs(_ feed: Feed) async throws -> [TweetID] {
        try await read { db in
            try Int64.fetchAll(db, sql: StoreQueries.memberIDs.sql, arguments: [try AppDatabase.currentAccount(db), feed.rawValue])
                .map(TweetID.init)
        }
    }
}

extension AppDatabase {
    static func feedItems(
        _ feed: Feed,
        limit: Int,
        before: TweetID?,
        avatarPath: (_ file: String) -> String?,
        _ db: Database
    ) throws -> [FeedItem] {
        var items: [FeedItem] = []
        try forEachFeedItem(feed, limit: limit, before: before, avatarPath: avatarPath, db) { items.append($0) }
        return items
    }

    static func forEachFeedItem(
        _ feed: Feed,
        limit: Int,
        before: TweetID?,
        avatarPath: (_ file: String) -> String?,
        _ db: Database,
        _ body: (FeedItem) throws -> Void
    ) throws {
        let account = try currentAccount(db)
        let top = before?.rawValue ?? Int64.max
        let rows = try Row.fetchCursor(
            db,
            sql: StoreQueries.feedItems.sql,
            arguments: ["account": account, "feed": feed.rawValue, "before": top, "limit": limit]
        )
        var authors = AuthorCache(db: db)
        var tags = try OtherFeedTags(feed, account: account, below: top, db)
        while let row = try rows.next() {
            let tweet = tweet(row)
            let author = try authors.entry(tweet.authorID, avatarPath: avatarPath)
            let feeds = try tags.feeds(of: tweet.id)
            var item = FeedItem(tweet: tweet, feeds: feeds, author: author.author, avatarPath: author.avatar)
            try attachGraph(&item, row, authors: &authors, avatarPath: avatarPath, db)
            try body(item)
        }
    }
}

extension AppDatabase {
    static func feedStats(_ feed: Feed, _ db: Database) throws -> FeedStats {
        let row = try Row.fetchOne(
            db,
            sql: StoreQueries.feedStats.sql,
            arguments: ["account": try currentAccount(db), "feed": feed.rawValue]
        )!
        return FeedStats(
            tweets: row["tweets"] ?? 0,
            newestID: (row["newest"] as Int64?).map(TweetID.init),
            newestCreatedAt: (row["newestCreatedAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        )
    }
}
