/// What both dialects do to a post's text before it is stored: undo the API's HTML
/// escaping and drop the link it appends for attached media.
package enum TextCleaning {
    /// `text` without `url` at its end (and the space before it): the link the API
    /// appends to a post with media, which the post shows as its photos instead.
    package static func droppingTrailingLink(_ url: String, from text: String) -> String {
        guard !url.isEmpty, text.hasSuffix(url) else { return text }
        var cut = text.dropLast(url.count)
        while cut.last?.isWhitespace == true { cut.removeLast() }
        return String(cut)
    }

    /// `text` without the media links at its end: each `t.co` URL of `mediaLinks`, as
    /// long as one ends the text (a post with photos and a video has one link per kind
    /// in some answers).
    package static func droppingTrailingLinks(_ mediaLinks: [String], from text: String) -> String {
        var text = text
        var dropped = true
        while dropped {
            dropped = false
            for url in mediaLinks where !url.isEmpty && text.hasSuffix(url) {
                text = droppingTrailingLink(url, from: text)
                dropped = true
            }
        }
        return text
    }

    /// Whether `expanded` is the post's own photo or video page
    /// (`https://twitter.com/USER/status/ID/photo/1`, `/video/1`, on x.com too): the
    /// `expanded_url` of the media link. Answers from before 2022 carry that link without
    /// a `media_key` (v2) or outside `entities.media` (v1.1), so the URL is what tells.
    /// Another post's photo page is a link its author wrote, and stays.
    package static func isOwnMediaPage(_ expanded: String, of id: TweetID) -> Bool {
        var rest = Substring(expanded.lowercased())
        for scheme in ["https://", "http://"] where rest.hasPrefix(scheme) { rest = rest.dropFirst(scheme.count) }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 6, mediaHosts.contains(String(parts[0])) else { return false }
        let tail = parts.suffix(4)
        let status = tail[tail.startIndex]
        let post = tail[tail.startIndex + 1]
        let kind = tail[tail.startIndex + 2]
        let number = tail[tail.startIndex + 3]
        return status == "status" && post == Substring(id.description) && (kind == "photo" || kind == "video")
            && !number.isEmpty && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
    }

    package static let mediaHosts: Set<String> = [
        "twitter.com", "www.twitter.com", "mobile.twitter.com", "x.com", "www.x.com", "mobile.x.com",
    ]

    /// The API HTML-escapes `&`, `<` and `>`; twfeed stores what the author typed.
    /// One pass over the UTF-8 bytes, not Foundation's string search: the archive import
    /// runs it on every post (Foundation's took a third of its time on Linux).
    package static func unescapeHTML(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.contains(UInt8(ascii: "&")) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var at = 0
            while at < bytes.count {
                if bytes[at] == UInt8(ascii: "&") {
                    if let (entity, length) = entity(bytes, at) {
                        out.append(entity)
                        at += length
                        continue
                    }
                }
                out.append(bytes[at])
                at += 1
            }
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }

    /// The character `&lt;`, `&gt;` or `&amp;` at `at` stands for, and its length.
    private static func entity(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> (UInt8, Int)? {
        for (name, character) in [("lt;", UInt8(ascii: "<")), ("gt;", UInt8(ascii: ">")), ("amp;", UInt8(ascii: "&"))] {
            let name = Array(name.utf8)
            if at + name.count < bytes.count, zip(name, bytes[(at + 1)...]).allSatisfy({ $0 == $1 }) {
                return (character, name.count + 1)
            }
        }
        return nil
    }
}
