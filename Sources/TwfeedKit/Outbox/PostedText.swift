import Foundation
import TwfeedCore

/// Whether a post the API returns is the text an outbox status asked for.
///
/// The API does not give back what was sent: the text comes HTML-escaped (`&amp;`, `&lt;`,
/// `&gt;`; the clients undo that), every link, bare domains included, is replaced by a
/// `t.co` link whose entity holds the `expanded_url`, a post with media ends in one more
/// `t.co` link (the media's), and a long post's `text` is cut, the whole being in
/// `note_tweet.text` with its own entities. So the post is read back from the JSON it
/// came in (`Tweet.rawJSON`): the whole text, each `t.co` link put back as the link it
/// stands for, the media link dropped, and only then compared.
enum PostedText {
    /// One piece of a post's text: words as they are, or a link that may be written
    /// any of several ways by the author.
    enum Piece: Equatable {
        case literal(String)
        case link([String])
    }

    /// Whether `tweet` says `typed` (both NFC, surrounding white space ignored).
    static func matches(_ tweet: Tweet, typed: String) -> Bool {
        let wanted = OutboxSettler.normalized(typed)
        if OutboxSettler.normalized(tweet.text) == wanted { return true }
        guard let pieces = pieces(rawJSON: tweet.rawJSON) else { return false }
        return matches(pieces[...], wanted[...])
    }

    /// The post's text as pieces, from the JSON object either dialect sent; nil when the
    /// object holds no text (a tweet built by twfeed itself, a test's).
    static func pieces(rawJSON: String) -> [Piece]? {
        guard let object = try? JSONValue.parse(rawJSON) else { return nil }
        let text: String
        var links: [JSONValue] = []
        var media: [String] = []
        if let note = object["note_tweet"] ?? object["note_post"], let whole = note["text"]?.string {
            // v2's long post: the whole text and its own entities.
            text = whole
            links = note["entities"]?["urls"]?.array ?? []
        } else if let whole = object["full_text"]?.string ?? object["text"]?.string {
            text = whole
            links = object["entities"]?["urls"]?.array ?? []
            // v1.1 lists the media link apart; v2 among the urls, with a media_key.
            for entry in (object["entities"]?["media"]?.array ?? []) + (object["extended_entities"]?["media"]?.array ?? []) {
                if let url = entry["url"]?.string { media.append(url) }
            }
        } else {
            return nil
        }
        var expansions: [String: String] = [:]
        let id = (object["id_str"] ?? object["id"])?.string.flatMap(TweetID.init)
        for link in links {
            guard let url = link["url"]?.string else { continue }
            let ownMediaPage = id.flatMap { id in link["expanded_url"]?.string.map { TextCleaning.isOwnMediaPage($0, of: id) } } == true
            if link["media_key"] != nil || ownMediaPage {
                media.append(url)
            } else if let expanded = link["expanded_url"]?.string {
                expansions[url] = expanded
            }
        }
        // The media link ends the text; the author never typed it.
        var remaining = TextCleaning.droppingTrailingLinks(
            media,
            from: TextCleaning.unescapeHTML(text).trimmingCharacters(in: .whitespacesAndNewlines)
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        var pieces: [Piece] = []
        while !remaining.isEmpty {
            // The earliest t.co link left, by position.
            let next = expansions.keys.compactMap { url in remaining.range(of: url).map { (url, $0) } }
                .min { $0.1.lowerBound < $1.1.lowerBound }
            guard let (url, range) = next else {
                pieces.append(.literal(remaining))
                break
            }
            if range.lowerBound > remaining.startIndex { pieces.append(.literal(String(remaining[..<range.lowerBound]))) }
            pieces.append(.link(spellings(of: expansions[url]!, short: url)))
            remaining = String(remaining[range.upperBound...])
        }
        return pieces.map { piece in
            if case .literal(let words) = piece { return .literal(words.precomposedStringWithCanonicalMapping) }
            return piece
        }
    }

    /// How an author may have typed the link the API expanded to `expanded`: as it is,
    /// without the scheme the API adds to a bare domain, without a trailing slash; or
    /// the `t.co` link itself, pasted.
    static func spellings(of expanded: String, short: String) -> [String] {
        var forms = [expanded]
        for scheme in ["https://", "http://"] where expanded.hasPrefix(scheme) {
            forms.append(String(expanded.dropFirst(scheme.count)))
        }
        for form in forms where form.hasSuffix("/") { forms.append(String(form.dropLast())) }
        forms.append(short)
        // Longest first, so "a.com/" is tried before "a.com" takes its slash for text.
        return forms.map { $0.precomposedStringWithCanonicalMapping }.sorted { $0.count > $1.count }
    }

    /// Whether `text` is exactly the pieces in order, a link taking any one of its
    /// spellings (backtracking over them; posts are short and links few).
    static func matches(_ pieces: ArraySlice<Piece>, _ text: Substring) -> Bool {
        guard let first = pieces.first else { return text.isEmpty }
        switch first {
        case .literal(let words):
            guard text.hasPrefix(words) else { return false }
            return matches(pieces.dropFirst(), text.dropFirst(words.count))
        case .link(let forms):
            for form in forms where text.hasPrefix(form) {
                if matches(pieces.dropFirst(), text.dropFirst(form.count)) { return true }
            }
            return false
        }
    }
}
