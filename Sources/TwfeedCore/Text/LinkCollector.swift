/// The links an answer's tweet object marks: what the client puts in `Tweet.links`, so
/// the store keeps them at ingest and knows no dialect. Both dialects spell a link the
/// same way (`url`, `expanded_url`, `display_url`); v2 puts them under `entities.urls`
/// (and `note_tweet.entities.urls`), v1.1 also under `retweeted_status` and `quoted_status`.
package enum LinkCollector {
    /// Every object with a `url` and an `expanded_url`, at any depth up to 8, the first of
    /// each `url` kept.
    package static func links(in value: JSONValue) -> [TweetLink] {
        var links: [TweetLink] = []
        collect(value, into: &links, depth: 0)
        return links
    }

    private static func collect(_ value: JSONValue, into links: inout [TweetLink], depth: Int) {
        guard depth < 8 else { return }
        switch value {
        case .object(let members):
            if let url = members["url"]?.string, let expanded = members["expanded_url"]?.string,
                !links.contains(where: { $0.url == url })
            {
                links.append(TweetLink(url: url, expandedURL: expanded, displayURL: members["display_url"]?.string))
            }
            // Keys in order, so the same answer gives the same list on every run.
            for key in members.keys.sorted() { collect(members[key]!, into: &links, depth: depth + 1) }
        case .array(let elements):
            for element in elements { collect(element, into: &links, depth: depth + 1) }
        default:
            break
        }
    }
}
