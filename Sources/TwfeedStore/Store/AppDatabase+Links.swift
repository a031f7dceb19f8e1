import GRDB
import TwfeedCore

/// A link the API marked in a tweet's text: the short `t.co` form the text holds, where
/// it leads, and what to show for it.
package struct TweetLink: Sendable, Equatable {
    package var url: String
    package var expandedURL: String
    package var displayURL: String?
}

extension AppDatabase {

    /// Every object with a `url` and an `expanded_url`, at any depth: v2 puts them under
    /// `entities.urls`, v1.1 also under `retweeted_status` and `quoted_status`.
    static func collectLinks(_ value: JSONValue, into links: inout [TweetLink], depth: Int = 0) {
        guard depth < 8 else { return }
        switch value {
        case .object(let members):
            if let url = members["url"]?.string, let expanded = members["expanded_url"]?.string,
                !links.contains(where: { $0.url == url })
            {
                links.append(TweetLink(url: url, expandedURL: expanded, displayURL: members["display_url"]?.string))
            }
            for (_, member) in members { collectLinks(member, into: &links, depth: depth + 1) }
        case .array(let elements):
            for element in elements { collectLinks(element, into: &links, depth: depth + 1) }
        default:
            break
        }
    }
}

extension StoreReading {
    /// The links the API's objects mark in these tweets' texts (`entities.urls` in both
    /// dialects, the retweeted and quoted tweets' included), for the web reader. One
    /// primary-key read per tweet shown: a page's worth, never a scan.
    package func tweetLinks(_ ids: [TweetID]) throws -> [TweetID: [TweetLink]] {
        try read { db in
            let statement = try db.cachedStatement(sql: ReaderQueries.tweetRawJSON.sql)
            var links: [TweetID: [TweetLink]] = [:]
            for id in ids {
                guard let raw = try String.fetchOne(statement, arguments: [id.rawValue]),
                    let object = try? JSONValue.parse(raw)
                else { continue }
                var found: [TweetLink] = []
                AppDatabase.collectLinks(object, into: &found)
                if !found.isEmpty { links[id] = found }
            }
            return links
        }
    }
}
