import Foundation
import GRDB
import TwfeedCore

/// What one reader page shows, read in one transaction: its posts, their links, and
/// (for `twfeed serve`, which has no daemon's snapshot to show) the header's counts.
/// Inside the daemon the header comes from its `StatusBoard` and `counts` is not asked.
package struct StorePage<Content: Sendable>: Sendable {
    package var content: Content
    /// The links of every post the page shows (`FeedItem.linkIDs`).
    package var links: [TweetID: [TweetLink]]
    /// Nil when not asked.
    package var counts: StoredCounts?

    package init(content: Content, links: [TweetID: [TweetLink]], counts: StoredCounts?) {
        self.content = content
        self.links = links
        self.counts = counts
    }
}

/// A feed's page: its posts and the gaps recorded in it.
package struct TimelineContent: Sendable {
    package var items: [FeedItem]
    package var gaps: [FeedGap]
}

extension StoreReading {
    /// A feed's page (`/home`, `/mentions`, `/retweets`): `feedItems`, the feed's gaps,
    /// the links, and the counts when `counts` asks.
    package func timelinePage(
        _ feed: Feed,
        limit: Int,
        before: TweetID?,
        avatarPath: @escaping @Sendable (_ file: String) -> String?,
        counts: StoredCounts.Request?
    ) async throws -> StorePage<TimelineContent> {
        try await read { db in
            let items = try AppDatabase.feedItems(feed, limit: limit, before: before, avatarPath: avatarPath, db)
            let content = TimelineContent(items: items, gaps: try AppDatabase.gaps(feed, db))
            return try AppDatabase.page(content, items: items, counts: counts, db)
        }
    }

    /// `/search`'s page (`search`).
    package func searchPage(
        _ query: SearchQuery,
        feed: Feed?,
        limit: Int,
        avatarPath: @escaping @Sendable (_ file: String) -> String?,
        counts: StoredCounts.Request?
    ) async throws -> StorePage<[FeedItem]> {
        try await read { db in
            let items = try AppDatabase.search(query, feed: feed, limit: limit, avatarPath: avatarPath, db)
            return try AppDatabase.page(items, items: items, counts: counts, db)
        }
    }

    /// `/tweet/ID`'s page (`conversation`); nil content when the post is not stored.
    package func conversationPage(
        _ id: TweetID,
        avatarPath: @escaping @Sendable (_ file: String) -> String?,
        counts: StoredCounts.Request?
    ) async throws -> StorePage<Conversation?> {
        try await read { db in
            let conversation = try AppDatabase.conversation(id, avatarPath: avatarPath, db)
            let items = conversation.map { $0.ancestors.compactMap(\.stored) + [$0.tweet] + $0.replies } ?? []
            return try AppDatabase.page(conversation, items: items, counts: counts, db)
        }
    }

    /// A page that shows no posts of the store's (compose, outbox): its header's counts.
    package func headerPage(counts: StoredCounts.Request?) async throws -> StorePage<Void> {
        try await read { db in try AppDatabase.page((), items: [], counts: counts, db) }
    }
}

extension Conversation.Ancestor {
    var stored: FeedItem? {
        if case .stored(let item) = self { item } else { nil }
    }
}

extension AppDatabase {
    static func page<Content: Sendable>(
        _ content: Content,
        items: [FeedItem],
        counts: StoredCounts.Request?,
        _ db: Database
    ) throws -> StorePage<Content> {
        StorePage(content: content, links: try links(FeedItem.linkIDs(items), db), counts: try counts.map { try storedCounts($0, db) })
    }
}
