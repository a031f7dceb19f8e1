import GRDB
import TwfeedCore

extension AppDatabase {
    /// The page's posts, each repost's text built from the original the page holds and
    /// the original author's stored username: "RT @user: " and the original's whole text
    /// (`Tweet.repostText`). A v2 timeline does not expand authors, so the parser knows
    /// the username only when the repost's own text starts with it, and that text may be
    /// a withholding notice instead; by now the page's authors are written and the others
    /// were stored earlier (the syncer looks up the ones it lacks). A repost whose
    /// original or author is not known keeps the text it came with.
    static func composeReposts(_ page: TimelinePage, _ db: Database) throws -> [Tweet] {
        guard page.tweets.contains(where: { $0.retweetOfID != nil }) else { return page.tweets }
        let originals = Dictionary(page.referencedTweets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let username = try db.cachedStatement(sql: StoreQueries.authorByID.sql)
        return try page.tweets.map { tweet in
            guard let originalID = tweet.retweetOfID, let original = originals[originalID],
                let name = try String.fetchOne(username, arguments: [original.authorID.rawValue])
            else { return tweet }
            var composed = tweet
            composed.text = Tweet.repostText(username: name, original: original.text)
            return composed
        }
    }

    /// Reposts stored before their original was (a page that left the original out, then
    /// a lookup that brought it): each takes the text `composeReposts` would have given it,
    /// "RT @user: " and the original's whole text, so a repost's `text` is not left cut
    /// for good. One indexed probe per original (`repostsOf`); most have no repost stored.
    static func recomposeReposts(of originals: [Tweet], _ db: Database) throws {
        let reposts = try db.cachedStatement(sql: StoreQueries.repostsOf.sql)
        let username = try db.cachedStatement(sql: StoreQueries.authorByID.sql)
        let update = try db.cachedStatement(sql: "UPDATE tweet SET text = ? WHERE id = ?")
        for original in originals {
            let stored = try Row.fetchAll(reposts, arguments: [original.id.rawValue])
            guard !stored.isEmpty, let name = try String.fetchOne(username, arguments: [original.authorID.rawValue]) else { continue }
            let text = Tweet.repostText(username: name, original: original.text)
            for row in stored where (row["text"] as String) != text {
                try update.execute(arguments: [text, row["id"] as Int64])
            }
        }
    }
}
