/// A link the API marked in a tweet's text: the short `t.co` form the text holds, where
/// it leads, and what to show for it. The API client reads them from its answer
/// (`LinkCollector`, either dialect) and the store keeps them beside the post (`link`),
/// so a page never parses a stored answer again.
package struct TweetLink: Sendable, Equatable {
    package var url: String
    package var expandedURL: String
    package var displayURL: String?

    package init(url: String, expandedURL: String, displayURL: String?) {
        self.url = url
        self.expandedURL = expandedURL
        self.displayURL = displayURL
    }
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
