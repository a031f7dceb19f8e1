import Foundation
import TwfeedBase
import TwfeedCore
import TwfeedStore

/// A feed as Atom 1.0 (RFC 4287), for feed readers: the newest 50, one `<entry>` per
/// tweet. Ids are `tag:` URIs (RFC 4151) built from the tweet's id, so they never
/// change, whichever address the reader was fetched from. The content is the page's
/// tweet HTML (links included), escaped once more as `type="html"` asks.
struct AtomFeed {
    struct Entry {
        var id: String
        var title: String
        var updated: String
        var authorName: String
        var authorHref: String?
        var statusHref: String
        var feeds: [String]
        var contentHTML: String
    }

    var id: String
    var title: String
    var updated: String
    var selfHref: String
    var htmlHref: String
    var entries: [Entry]

    init(feed: Feed, account: String?, items: [FeedItem], links: [TweetID: [TweetLink]], origin: String, now: Date) throws {
        id = "tag:twfeed.invalid,2026:\(account.map { "account/\($0)/" } ?? "")\(feed.rawValue)"
        title = "twfeed: \(feed.rawValue)"
        updated = Timestamp.iso8601(items.first?.tweet.createdAt ?? now)
        selfHref = "\(origin)/feeds/\(feed.rawValue).atom"
        htmlHref = "\(origin)/\(feed.rawValue)"
        entries = try items.map { item in
            let model = TweetModel(item, links: links, now: now)
            let html = try PageTemplates.render(model, withTemplate: "atomContent")
            let oneLine = model.post.deleted ? "deleted" : item.shown.tweet.text.split(whereSeparator: \.isNewline).joined(separator: " ")
            let handle = model.post.username.isEmpty ? "" : "@\(model.post.username)"
            return Entry(
                id: "tag:twitter.com,2006:status/\(item.tweet.id)",
                title: Self.xmlSafe((handle.isEmpty ? "" : "\(handle): ") + (oneLine.count > 80 ? oneLine.prefix(79) + "…" : oneLine)),
                updated: model.post.time.iso,
                authorName: Self.xmlSafe(handle.isEmpty ? model.post.name : "\(model.post.name) (\(handle))"),
                authorHref: item.shown.author == nil ? nil : model.post.profileHref,
                statusHref: model.post.statusHref,
                feeds: model.feeds,
                contentHTML: Self.xmlSafe(html)
            )
        }
    }

    func render() throws -> String {
        try PageTemplates.render(self, withTemplate: "atom")
    }

    /// XML 1.0 forbids most control characters even escaped: a tweet carrying one
    /// must not make the whole feed unreadable, so each becomes U+FFFD.
    static func xmlSafe(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar -> Unicode.Scalar in
                    let value = scalar.value
                    let allowed =
                        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                        || (0xE000...0xFFFD).contains(value) || value >= 0x10000
                    return allowed ? scalar : "\u{FFFD}"
                }
            )
        )
    }
}
