/// One read the store runs. Every SELECT the store's read methods run is one of these,
/// listed in `StoreQueries.all`, so the query-plan test runs EXPLAIN QUERY PLAN on each
/// against a populated database: a new read cannot escape it.
struct StoreQuery: Sendable {
    let name: String
    let sql: String
    /// Why this query may walk a whole table or sort, or nil: it must cost O(limit) or
    /// O(log n) (a SEARCH through an index, no temp B-tree).
    let allowance: Allowance?

    struct Allowance: Sendable {
        /// The tables (as the plan names them: alias or table) it may SCAN.
        let scans: Set<String>
        /// Whether it may sort in a temp B-tree.
        let sorts: Bool
        let why: String
    }

    init(_ name: String, _ sql: String, allowance: Allowance? = nil) {
        self.name = name
        self.sql = sql
        self.allowance = allowance
    }
}

/// The store's reads, in one place (see `StoreQuery`). Named arguments where a value is
/// used twice; ids are INTEGER, times Unix seconds (docs/SCHEMA.md).
enum StoreQueries {
    /// A feed, newest first, from below `:before` (Int64.max for the top): walks the
    /// (feed, tweetId) primary key backwards and stops after `:limit` rows. The per-row
    /// feed list reads the (tweetId, feed) index. Ordering by `t.id` instead would sort
    /// every joined row before LIMIT applied. Authors are not joined: a feed repeats a
    /// few hundred authors, which `forEachFeedItem` reads once each (`authorByID`,
    /// `imageFileOf`) instead of two more B-tree probes and three strings per row. What
    /// each tweet points at is joined (`AppDatabase.graphJoins`): a primary-key probe
    /// each, in SQLite, rather than a query per tweet. The other feeds a tweet is in come
    /// from `feedTagsBelow`, walked alongside (`OtherFeedTags`): a probe of the
    /// (tweetId, feed) index per row was a fifth of a full dump's time.
    static let feedItems = StoreQuery(
        "feedItems",
        """
        SELECT \(AppDatabase.feedTweetColumns), \(AppDatabase.graphColumns)
        FROM feedMembership m
        JOIN tweet t ON t.id = m.tweetId
        \(AppDatabase.graphJoins)
        WHERE m.account = :account AND m.feed = :feed AND m.tweetId < :before
        ORDER BY m.tweetId DESC
        LIMIT :limit
        """
    )
    /// A feed's tags below an id, newest first: the primary key walked backwards.
    static let feedTagsBelow = StoreQuery(
        "feedTagsBelow",
        "SELECT tweetId FROM feedMembership WHERE account = ? AND feed = ? AND tweetId < ? ORDER BY tweetId DESC"
    )
    static let authorByID = StoreQuery("authorByID", "SELECT username, name, profileImageURL FROM user WHERE id = ?")

    /// `status`: the count the triggers keep (feedCount), the newest id from the primary
    /// key's last entry, its time by the tweet's primary key.
    static let feedStats = StoreQuery(
        "feedStats",
        """
        SELECT (SELECT tweets FROM feedCount WHERE account = :account AND feed = :feed) AS tweets,
            (SELECT max(tweetId) FROM feedMembership WHERE account = :account AND feed = :feed) AS newest,
            (SELECT createdAt FROM tweet WHERE id = (SELECT max(tweetId) FROM feedMembership
                WHERE account = :account AND feed = :feed)) AS newestCreatedAt
        """
    )

    static let memberIDs = StoreQuery("memberIDs", "SELECT tweetId FROM feedMembership WHERE account = ? AND feed = ? ORDER BY tweetId DESC")

    /// The syncer's per-page check; `count` placeholders after the account and the feed.
    static func knownIDs(count: Int) -> StoreQuery {
        StoreQuery(
            "knownIDs",
            "SELECT tweetId FROM feedMembership WHERE account = ? AND feed = ? AND tweetId IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))"
        )
    }

    /// The syncer's author check; `count` placeholders after the freshness bound: which of
    /// these users are stored and were refreshed since then (the rest must be looked up).
    static func freshUsers(count: Int) -> StoreQuery {
        StoreQuery(
            "freshUsers",
            "SELECT id FROM user WHERE updatedAt >= ? AND id IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))"
        )
    }

    static let syncState = StoreQuery("syncState", "SELECT * FROM syncState WHERE account = ? AND feed = ?")
    static let account = StoreQuery("account", "SELECT key, value FROM account")
    /// The signed-in account's user id, which scopes feed tags, counts and positions.
    static let currentAccount = StoreQuery("currentAccount", "SELECT \(AppDatabase.currentAccountSQL)")

    static let outboxAll = StoreQuery(
        "outboxAll",
        "SELECT * FROM outbox ORDER BY id",
        allowance: .init(
            scans: ["outbox"],
            sorts: false,
            why: "`outbox list` shows every status; in id order, no sort"
        )
    )
    /// The flusher's per-pass reads: by the (state, id) index, oldest first.
    static let outboxInState = StoreQuery("outboxInState", "SELECT * FROM outbox WHERE state = ? ORDER BY id LIMIT ?")
    static let outboxItem = StoreQuery("outboxItem", "SELECT * FROM outbox WHERE id = ?")
    /// The reader's outbox page: newest first from below `?`, down the primary key.
    static let outboxNewest = StoreQuery("outboxNewest", "SELECT * FROM outbox WHERE id < ? ORDER BY id DESC LIMIT ?")
    /// Counts the triggers keep (outboxCount: one row per state).
    static let outboxCounts = StoreQuery("outboxCounts", "SELECT state, statuses FROM outboxCount WHERE statuses > 0")
    static let outboxOldestWaiting = StoreQuery(
        "outboxOldestWaiting",
        "SELECT min(queuedAt) FROM outbox WHERE state IN ('pending', 'sending', 'uncertain')"
    )
    /// A queued status's photos without their bytes, in order (the primary key).
    static let outboxPhotos = StoreQuery(
        "outboxPhotos",
        "SELECT position, fileName, type, byteCount, alt, mediaId, mediaExpiresAt, altSetAt FROM outboxPhoto WHERE outboxId = ? ORDER BY position"
    )
    static let outboxPhotoBytes = StoreQuery("outboxPhotoBytes", "SELECT bytes FROM outboxPhoto WHERE outboxId = ? AND position = ?")
    /// The flusher's head: pending in id order (the state index), its time reached, a
    /// thread's later part only once its parent went out with a known id.
    static let outboxNextDue = StoreQuery(
        "outboxNextDue",
        """
        SELECT * FROM outbox o WHERE o.state = 'pending' AND (o.notBefore IS NULL OR o.notBefore <= ?)
        AND (o.threadPart IS NULL OR o.threadPart = 1 OR EXISTS (
            SELECT 1 FROM outbox p WHERE p.threadId = o.threadId AND p.threadPart = o.threadPart - 1
            AND p.state = 'sent' AND p.sentTweetId IS NOT NULL))
        ORDER BY o.id LIMIT 1
        """
    )
    /// The earliest time to send still ahead (a partial index on pending times).
    static let outboxNextTime = StoreQuery(
        "outboxNextTime",
        "SELECT min(notBefore) FROM outbox WHERE state = 'pending' AND notBefore > ?"
    )
    static let outboxThreadParts = StoreQuery("outboxThreadParts", "SELECT * FROM outbox WHERE threadId = ? ORDER BY threadPart")
    /// A deletion of this post already on its way.
    static let outboxQueuedDeletion = StoreQuery(
        "outboxQueuedDeletion",
        "SELECT id FROM outbox WHERE targetTweetId = ? AND kind = 'delete' AND state IN ('pending', 'sending', 'uncertain') LIMIT 1"
    )
    static let tweetAuthorAndDeletion = StoreQuery("tweetAuthorAndDeletion", "SELECT authorId, deletedAt FROM tweet WHERE id = ?")
    /// Settling an uncertain status: is this tweet already another status's? (v6's
    /// partial index on sentTweetId.)
    static let outboxSentTweet = StoreQuery("outboxSentTweet", "SELECT id FROM outbox WHERE sentTweetId = ? LIMIT 1")
    /// Before each post: the newest id twfeed knows, the settling's lower bound (the
    /// rowid's max, one step down the primary key).
    static let newestTweetID = StoreQuery("newestTweetID", "SELECT max(id) FROM tweet")

    static let imageCandidates = StoreQuery(
        "imageCandidates",
        """
        SELECT u.id AS uid, u.profileImageURL AS currentURL, u.updatedAt AS usedAt, p.*
        FROM user u LEFT JOIN profileImage p ON p.authorId = u.id
        WHERE u.profileImageURL IS NOT NULL AND u.profileImageURL != ''
          AND (p.authorId IS NULL OR p.sourceURL != u.profileImageURL OR p.size != :size
               OR (p.rejectedReason IS NOT NULL AND p.rejectedPolicy IS NOT :policy)
               OR (p.rejectedReason IS NULL AND (p.retryAt IS NULL OR p.retryAt <= :now) AND (
                      (p.file IS NULL AND (p.evictedAt IS NULL OR p.lastUsedAt > p.evictedAt))
                   OR (p.file IS NOT NULL AND (p.fetchedAt IS NULL OR p.fetchedAt <= :stale)))))
        ORDER BY max(u.updatedAt, coalesce(p.lastUsedAt, 0)) DESC, u.id
        """,
        allowance: .init(
            scans: ["u"],
            sorts: true,
            why: """
                the image fetcher's cycle compares every author with its image row: O(authors) \
                per cycle, not per tweet (follow-up: only authors changed since the last cycle)
                """
        )
    )
    /// By the two partial indexes: the earliest revalidation and the earliest retry.
    static let nextImageDue = StoreQuery(
        "nextImageDue",
        """
        SELECT min(t) FROM (
            SELECT min(fetchedAt) + :revalidate AS t FROM profileImage
                WHERE file IS NOT NULL AND rejectedReason IS NULL AND fetchedAt IS NOT NULL
            UNION ALL SELECT min(retryAt) FROM profileImage WHERE retryAt IS NOT NULL AND rejectedReason IS NULL)
        """
    )
    static let profileImage = StoreQuery("profileImage", "SELECT * FROM profileImage WHERE authorId = ?")
    static let profileImages = StoreQuery(
        "profileImages",
        "SELECT * FROM profileImage ORDER BY authorId",
        allowance: .init(
            scans: ["profileImage"],
            sorts: false,
            why: "every row, for tests and diagnostics; in key order"
        )
    )
    static let imageFileRows = StoreQuery(
        "imageFileRows",
        """
        SELECT file, lastUsedAt FROM profileImage WHERE file IS NOT NULL
        UNION ALL SELECT file, lastUsedAt FROM photo WHERE file IS NOT NULL
        """,
        allowance: .init(
            scans: ["profileImage", "photo"],
            sorts: false,
            why: "the janitor weighs every cached file, only once the cache is over its cap"
        )
    )
    /// The photo fetcher's questions (migration "v15: photos"): each reads a partial
    /// index that holds only the rows it is about, so a million evicted photos cost nothing.
    static let photosWanted = StoreQuery(
        "photosWanted",
        """
        SELECT url, failures FROM photo
        WHERE file IS NULL AND rejectedReason IS NULL AND (evictedAt IS NULL OR lastUsedAt > evictedAt)
          AND (retryAt IS NULL OR retryAt <= :now)
        ORDER BY lastUsedAt DESC LIMIT :limit
        """,
        allowance: .init(
            scans: ["photo"],
            sorts: false,
            why: "the partial index photo_wanted holds only the pictures still wanted, newest use first"
        )
    )
    static let photosRefusedUnderOldPolicy = StoreQuery(
        "photosRefusedUnderOldPolicy",
        "SELECT url, failures FROM photo WHERE rejectedReason IS NOT NULL AND rejectedPolicy IS NOT :policy LIMIT :limit",
        allowance: .init(
            scans: ["photo"],
            sorts: false,
            why: "the partial index photo_rejected holds only the refused pictures"
        )
    )
    static let nextPhotoDue = StoreQuery(
        "nextPhotoDue",
        "SELECT min(retryAt) FROM photo WHERE file IS NULL AND retryAt IS NOT NULL"
    )
    static let photo = StoreQuery("photo", "SELECT * FROM photo WHERE url = ?")
    static let photoFileOf = StoreQuery("photoFileOf", "SELECT file FROM photo WHERE url = ?")

    /// Kept by triggers (migration "v10: image cache counts"): one row, whatever the
    /// cache holds.
    static let imageCacheTotals = StoreQuery("imageCacheTotals", "SELECT files, bytes FROM imageCacheCount WHERE id = 1")
    /// How many rows (avatars and photos: the v10 and v15 triggers count both) name a file.
    static let imageFileUsers = StoreQuery("imageFileUsers", "SELECT users FROM imageFile WHERE file = ?")
    static let imageFileOf = StoreQuery("imageFileOf", "SELECT file FROM profileImage WHERE authorId = ?")

    /// The benchmark's and diagnostics' whole-table counts (`AppDatabase+Diagnostics`).
    static let tweetCount = StoreQuery(
        "tweetCount",
        "SELECT count(*) FROM tweet",
        allowance: .init(
            scans: ["tweet"],
            sorts: false,
            why: "a whole-table count for the benchmark; no page or service runs it"
        )
    )
    static let authorsWithPicture = StoreQuery(
        "authorsWithPicture",
        "SELECT count(*) FROM user WHERE profileImageURL IS NOT NULL",
        allowance: .init(
            scans: ["user"],
            sorts: false,
            why: "a whole-table count for the benchmark; no page or service runs it"
        )
    )

    /// The views' common questions (docs/SCHEMA.md), so the views stay instant too.
    static let timelineView = StoreQuery(
        "timelineView",
        "SELECT * FROM timeline WHERE feed = 'home' ORDER BY tweet_id DESC LIMIT 20"
    )
    static let feedCountsView = StoreQuery("feedCountsView", "SELECT * FROM feed_counts")
    static let postsView = StoreQuery("postsView", "SELECT * FROM posts WHERE state = 'pending' ORDER BY id")

    /// What a tweet points at (AppDatabase+Graph): a post by its primary key, a post's
    /// media by the (tweetId, position) key, the replies to a post through the partial
    /// `tweet_inReplyTo` index.
    static let tweetByID = StoreQuery("tweetByID", "SELECT \(AppDatabase.feedTweetColumns) FROM tweet t WHERE t.id = ?")
    static let mediaOfTweet = StoreQuery(
        "mediaOfTweet",
        """
        SELECT m.mediaKey, m.kind, m.imageURL, m.width, m.height, m.altText, p.file
        FROM media m LEFT JOIN photo p ON p.url = m.imageURL WHERE m.tweetId = ? ORDER BY m.position
        """
    )
    static let repliesTo = StoreQuery("repliesTo", "SELECT id FROM tweet WHERE inReplyToId = ? ORDER BY id LIMIT ?")

    /// The fetcher's next posts: the queue is small (what someone looked at, what the
    /// newest pages lack), so it is read whole and sorted, looks first.
    static let pendingFetches = StoreQuery(
        "pendingFetches",
        """
        SELECT r.tweetId, r.reason FROM fetchRequest r
        WHERE NOT EXISTS (SELECT 1 FROM unavailableTweet u WHERE u.tweetId = r.tweetId AND u.checkedAt > :recent)
        ORDER BY r.reason = 'asked' DESC, r.requestedAt, r.tweetId LIMIT :limit
        """,
        allowance: .init(scans: ["r"], sorts: true, why: "the fetch queue holds what was looked at lately, not the archive")
    )
    static let unavailableTweet = StoreQuery("unavailableTweet", "SELECT reason FROM unavailableTweet WHERE tweetId = ?")
    /// The stored reposts of one post (the partial index on `retweetOfId`).
    static let repostsOf = StoreQuery("repostsOf", "SELECT id, text FROM tweet WHERE retweetOfId = ?")

    static let all: [StoreQuery] = [
        feedItems, feedTagsBelow, feedStats, memberIDs, knownIDs(count: 3), freshUsers(count: 3), syncState, account, currentAccount,
        outboxAll, outboxInState, outboxItem, outboxNewest, outboxCounts, outboxOldestWaiting, outboxSentTweet, newestTweetID,
        outboxPhotos, outboxPhotoBytes, outboxNextDue, outboxNextTime, outboxThreadParts, outboxQueuedDeletion, tweetAuthorAndDeletion,
        imageCandidates, nextImageDue, profileImage, profileImages, imageFileRows, imageCacheTotals, tweetCount, authorsWithPicture,
        imageFileUsers, imageFileOf, photosWanted, photosRefusedUnderOldPolicy, nextPhotoDue, photo, photoFileOf,
        timelineView, feedCountsView, postsView,
        search, searchInFeed, usersMatching, usersNamed, feedItemByID, linksOfTweet, authorByID,
        spendSince, spendBetween, spendTotals,
        billingState, endpointRefusals, gapsInFeed, gapsAll, gapCounts, fillRequest,
        tweetByID, mediaOfTweet, repliesTo, pendingFetches, unavailableTweet, conversationOf, archiveBatchStored, repostsOf,
    ]

    /// The billing status: one row by its key.
    static let billingState = StoreQuery("billingState", "SELECT * FROM billingState WHERE id = 1")
    /// The endpoints refused to the account: at most one row per source.
    static let endpointRefusals = StoreQuery(
        "endpointRefusals",
        "SELECT * FROM endpointRefusal",
        allowance: .init(scans: ["endpointRefusal"], sorts: false, why: "one row per billing source at most (seven)")
    )
    /// A feed's gaps newest first: a range of `gap_feed`, walked backwards.
    static let gapsInFeed = StoreQuery(
        "gapsInFeed",
        "SELECT * FROM gap WHERE account = ? AND feed = ? ORDER BY olderThanId DESC"
    )
    /// Every feed's gaps, by feed and newest first: `gap_feed` walked backwards.
    static let gapsAll = StoreQuery("gapsAll", "SELECT * FROM gap WHERE account = ? ORDER BY feed DESC, olderThanId DESC")
    /// Gaps per feed: counted along `gap_feed`.
    static let gapCounts = StoreQuery("gapCounts", "SELECT feed, count(*) FROM gap WHERE account = ? GROUP BY feed")
    /// What `twfeed fill` asked for a feed.
    static let fillRequest = StoreQuery("fillRequest", "SELECT maxMicros FROM fillRequest WHERE feed = ?")

    /// `twfeed usage`: the ledger's days from `?` on, a range of the primary key walked
    /// backwards (newest first, no sort).
    static let spendSince = StoreQuery(
        "spendSince",
        """
        SELECT day, source, kind, resources, micros, repeats FROM spend WHERE day >= ?
        ORDER BY day DESC, source DESC, kind DESC
        """
    )
    /// A cycle's or a day's spend: a range of the primary key.
    static let spendBetween = StoreQuery("spendBetween", "SELECT sum(micros) FROM spend WHERE day >= ? AND day < ?")
    /// The metrics' counters: every ledger row, grouped.
    static let spendTotals = StoreQuery(
        "spendTotals",
        """
        SELECT source, kind, sum(resources) AS resources, sum(micros) AS micros, sum(repeats) AS repeats FROM spend
        GROUP BY source, kind
        """,
        allowance: .init(
            scans: ["spend"],
            sorts: true,
            why: "the ledger holds a few rows a day (days × sources × kinds), never a row per tweet"
        )
    )

    /// `twfeed search`: the SQL sits beside the code that builds its MATCH
    /// (Store/AppDatabase+Search.swift); listed here so the plan test checks it too.
    static let search = StoreQuery("search", AppDatabase.searchSQL)
    static let searchInFeed = StoreQuery("searchInFeed", AppDatabase.searchInFeedSQL)
    static let usersMatching = StoreQuery("usersMatching", AppDatabase.usersMatchingSQL)
    static let usersNamed = StoreQuery("usersNamed", AppDatabase.usersNamedSQL)
    static let feedItemByID = StoreQuery("feedItemByID", AppDatabase.feedItemByIDSQL)
    /// The web reader's links: the API's object of one tweet shown on a page.
    /// A post's links (v18), in order: its primary key's range.
    static let linksOfTweet = StoreQuery(
        "linksOfTweet",
        "SELECT url, expandedURL, displayURL FROM link WHERE tweetId = ? ORDER BY position"
    )
    /// A stored post's conversation, when storing its replies (`settleConversations`).
    static let conversationOf = StoreQuery("conversationOf", "SELECT conversationId FROM tweet WHERE id = ?")
    /// Which posts of an archive's batch (and which of its replies' parents) are stored,
    /// whether each carries the feed's tag, and its conversation (`storeArchived`): the
    /// ids come as one JSON array, each looked up by the primary key.
    static let archiveBatchStored = StoreQuery(
        "archiveBatchStored",
        """
        SELECT t.id, EXISTS (SELECT 1 FROM feedMembership m WHERE m.account = ?1 AND m.feed = ?2 AND m.tweetId = t.id) AS tagged,
            t.conversationId
        FROM tweet t WHERE t.id IN (SELECT value FROM json_each(?3))
        """,
        allowance: .init(scans: ["json_each"], sorts: false, why: "the batch's own ids, passed as one JSON array")
    )
}
