import GRDB
import TwfeedCore

/// A link the API marked in a tweet's text: the short `t.co` form the text holds, where
/// it leads, and what to show for it.
package struct TweetLink: Sendable, Equatable {
    package var url: String
    package var expandedURL: String
    package var displayURL: String?
}

extension TweetLink {
    /// What a page shows for the link: where it leads, as the API spells it for display.
    package var shown: String { displayURL ?? expandedURL }

    /// Whether the link leads to a web page (`http(s)://`, no white space or control
    /// character): only those are shown and linked, never a `javascript:` or `data:` one.
    package var leadsToWebPage: Bool { !url.isEmpty && Self.isWebURL(expandedURL) }

    package static func isWebURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && text.count > 8
            && !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true })
    }

    /// `text` with each link as the post shows it (`shown`): what a reply's line of its
    /// parent shows, so the excerpt reads as the parent itself does.
    package static func shownText(_ text: String, links: [TweetLink]) -> String {
        links.reduce(text) { text, link in
            link.leadsToWebPage ? text.replacingOccurrences(of: link.url, with: link.shown) : text
        }
    }
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

extension FeedItem {
    /// Every post whose links a page of these items shows: each item, its reposted
    /// original and its quoted post (`StoreReading.tweetLinks`).
    package static func linkIDs(_ items: [FeedItem]) -> [TweetID] {
        items.flatMap { item in [item.tweet.id] + [item.retweetOf?.tweet.id, item.quoted?.tweet.id].compactMap { $0 } }
    }
}

extension StoreReading {
    /// The links the API's objects mark in these tweets' texts (`entities.urls` in both
    /// dialects, the retweeted and quoted tweets' included), for the web reader. One
    /// primary-key read per tweet shown: a page's worth, never a scan.
    package func tweetLinks(_ ids: [TweetID]) throws -> [TweetID: [TweetLink]] {
        try read { db in
            let statement = try db.cachedStatement(sql: StoreQueries.tweetRawJSON.sql)
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
