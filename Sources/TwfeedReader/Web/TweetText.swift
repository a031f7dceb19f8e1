import Foundation
import TwfeedCore
import TwfeedStore

/// A tweet's text as the pages show it: runs of plain text and links, which the
/// templates escape and wrap (`<a href="{{href}}">{{text}}</a>`), so no character of a
/// tweet is ever written into the page unescaped.
struct TweetText {
    struct Segment: Equatable {
        var text: String
        /// Only ever an `http` or `https` URL: a `javascript:` or `data:` link cannot be made.
        var href: String?
    }

    /// The text cut into segments: first the links the API marked (a `t.co` link shows
    /// where it leads), then any other `http(s)://` URL left in the plain runs.
    static func segments(_ text: String, links: [TweetLink]) -> [Segment] {
        var segments = [Segment(text: text, href: nil)]
        for link in links where link.leadsToWebPage {
            segments = segments.flatMap { segment -> [Segment] in
                guard segment.href == nil else { return [segment] }
                return split(segment.text, on: link.url) { Segment(text: link.shown, href: link.expandedURL) }
            }
        }
        return segments.flatMap { segment in segment.href == nil ? bareURLs(segment.text) : [segment] }
            .filter { !$0.text.isEmpty }
    }

    private static func split(_ text: String, on needle: String, link: () -> Segment) -> [Segment] {
        var result: [Segment] = []
        var rest = Substring(text)
        while let range = rest.range(of: needle) {
            result.append(Segment(text: String(rest[..<range.lowerBound]), href: nil))
            result.append(link())
            rest = rest[range.upperBound...]
        }
        result.append(Segment(text: String(rest), href: nil))
        return result
    }

    /// Plain text with each `http(s)://...` run (up to whitespace, without trailing
    /// punctuation) made a link to itself.
    private static func bareURLs(_ text: String) -> [Segment] {
        // Most runs have no "http" at all: answered from the bytes, without Foundation's search.
        guard mayContainHTTP(text) else { return [Segment(text: text, href: nil)] }
        var result: [Segment] = []
        var rest = Substring(text)
        while let start = rest.range(of: "http", options: .caseInsensitive)?.lowerBound {
            let candidate = rest[start...]
            let end = candidate.firstIndex(where: { $0.isWhitespace || "<>\"'".contains($0) }) ?? candidate.endIndex
            var url = candidate[..<end]
            while let last = url.last, ".,;:!?)]}".contains(last) { url = url.dropLast() }
            guard TweetLink.isWebURL(String(url)) else {
                let next = rest.index(start, offsetBy: 4)
                result.append(Segment(text: String(rest[..<next]), href: nil))
                rest = rest[next...]
                continue
            }
            result.append(Segment(text: String(rest[..<start]), href: nil))
            result.append(Segment(text: String(url), href: String(url)))
            rest = rest[url.endIndex...]
        }
        result.append(Segment(text: String(rest), href: nil))
        // Neighbouring plain runs (from skipped "http" words) read as one.
        return result.reduce(into: []) { merged, segment in
            if segment.href == nil, let last = merged.last, last.href == nil {
                merged[merged.count - 1].text += segment.text
            } else {
                merged.append(segment)
            }
        }
    }

    /// Whether "http" occurs in `text`, in any case: ASCII letters, so the UTF-8 bytes tell.
    static func mayContainHTTP(_ text: String) -> Bool {
        let http: [UInt8] = [0x68, 0x74, 0x74, 0x70]
        var matched = 0
        for byte in text.utf8 {
            let lower = byte | 0x20
            if lower == http[matched] {
                matched += 1
                if matched == 4 { return true }
            } else {
                matched = lower == UInt8(ascii: "h") ? 1 : 0
            }
        }
        return false
    }
}
