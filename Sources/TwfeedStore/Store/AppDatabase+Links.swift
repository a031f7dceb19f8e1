import GRDB
import TwfeedCore

extension FeedItem {
    /// Every post whose links a page of these items shows: each item, its reposted
    /// original and its quoted post (`StoreReading.tweetLinks`).
    package static func linkIDs(_ items: [FeedItem]) -> [TweetID] {
        items.flatMap { item in [item.tweet.id] + [item.retweetOf?.tweet.id, item.quoted?.tweet.id].compactMap { $0 } }
    }
}

extension StoreReading {
    /// The links stored with these tweets (`link`, written at ingest from the API's
    /// `entities.urls`), for the web reader and the commands. One primary-key range per
    /// tweet shown: a page's worth, never a scan.
    package func tweetLinks(_ ids: [TweetID]) async throws -> [TweetID: [TweetLink]] {
        try await read { db in try AppDatabase.links(ids, db) }
    }
}

extension AppDatabase {
    static func links(_ ids: [TweetID], _ db: Database) throws -> [TweetID: [TweetLink]] {
        var found: [TweetID: [TweetLink]] = [:]
        for id in ids where found[id] == nil {
            let list = try links(of: id, db)
            if !list.isEmpty { found[id] = list }
        }
        return found
    }

    /// One post's links, in the order the client read them.
    static func links(of id: TweetID, _ db: Database) throws -> [TweetLink] {
        try Row.fetchAll(db.cachedStatement(sql: StoreQueries.linksOfTweet.sql), arguments: [id.rawValue]).map { row in
            TweetLink(url: row[0], expandedURL: row[1], displayURL: row[2])
        }
    }
}
