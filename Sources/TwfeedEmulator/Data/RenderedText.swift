import Foundation

/// A shortened link as the API reports it: the `t.co` form that appears in the text,
/// and where it leads.
struct TweetURL: Sendable, Equatable {
    let url: String
    let expanded: String
    let display: String
}

/// One entity of a tweet text. Offsets count Unicode scalars of the HTML-escaped text,
/// as the API's indices do (so a preceding `&amp;` shifts them by four).
enum TweetEntity: Sendable {
    case mention(start: Int, end: Int, username: String, userID: UInt64)
    case hashtag(start: Int, end: Int, tag: String)
    case url(start: Int, end: Int, TweetURL)
}

/// A tweet text as sent over the wire: escaped, measured, with its entities.
struct RenderedText: Sendable {
    /// The HTML-escaped text (`&amp;`, `&lt;`, `&gt;`), as both dialects send it.
    let escaped: String
    /// Length in Unicode scalars of `escaped` (v1.1's `display_text_range` end).
    let length: Int
    let entities: [TweetEntity]

    /// Escapes `raw` and finds its entities: `@names` that resolve to users, `#tags`,
    /// and `t.co` links listed in `urls`.
    init(raw: String, urls: [TweetURL], resolveUser: (String) -> (id: UInt64, username: String)?) {
        escaped = StatusTextRules.htmlEscape(raw)
        let scalars = Array(escaped.unicodeScalars)
        length = scalars.count
        var found: [TweetEntity] = []
        var index = 0
        func isWord(_ s: Unicode.Scalar) -> Bool {
            s == "_" || s.properties.isAlphabetic || ("0"..."9").contains(s)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let atWordStart = index == 0 || !isWord(scalars[index - 1])
            if (scalar == "@" || scalar == "#") && atWordStart {
                var end = index + 1
                while end < scalars.count, isWord(scalars[end]) { end += 1 }
                let word = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
                if scalar == "@", !word.isEmpty, let user = resolveUser(word) {
                    found.append(.mention(start: index, end: end, username: user.username, userID: user.id))
                    index = end
                    continue
                }
                if scalar == "#", word.contains(where: { $0.isLetter }) {
                    found.append(.hashtag(start: index, end: end, tag: word))
                    index = end
                    continue
                }
            }
            if scalar == "h", atWordStart {
                // A link ends where its t.co form does, not at the next space: a posted
                // "(example.com)." has its link between the brackets.
                let rest = scalars[index...]
                if let link = urls.first(where: { rest.starts(with: $0.url.unicodeScalars) }) {
                    let end = index + link.url.unicodeScalars.count
                    found.append(.url(start: index, end: end, link))
                    index = end
                    continue
                }
            }
            index += 1
        }
        entities = found
    }
}
