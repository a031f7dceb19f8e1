import Foundation

/// What the API does to a status's text, in both dialects: escapes it for the wire, cuts it
/// (v1.1's non-extended `text`, a retweet's "RT @user: ..."), and weighs it against 280.
/// Named apart from TwfeedKit's `TweetText` (the reader's links) so both read unqualified.
enum StatusTextRules {
    /// What the API escapes in tweet text (and nothing else: quotes stay as they are).
    static func htmlEscape(_ raw: String) -> String {
        var out = ""
        out.reserveCapacity(raw.utf8.count)
        for scalar in raw.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The text cut to at most `limit` Unicode scalars with a trailing "…", never
    /// splitting a grapheme (an emoji sequence), or nil if it already fits.
    /// This is v1.1's non-extended `text`, and the "RT @user: ..." text of a retweet.
    static func truncated(_ raw: String, limit: Int) -> String? {
        guard raw.unicodeScalars.count > limit else { return nil }
        var out = ""
        var used = 0
        for character in raw {
            let size = character.unicodeScalars.count
            if used + size > limit - 1 { break }
            out.append(character)
            used += size
        }
        while out.last?.isWhitespace == true { out.removeLast() }
        return out + "…"
    }

    /// The twitter-text "weighted length", approximated: a URL counts 23, an emoji 2,
    /// a character in the Latin/common ranges 1, anything else (CJK, ...) 2. Over 280
    /// the API refuses the status.
    static func weightedLength(_ text: String) -> Int {
        let normalized = text.precomposedStringWithCanonicalMapping
        var total = 0
        var characters = Array(normalized)
        var index = 0
        var previousIsSpace = true
        while index < characters.count {
            if previousIsSpace, startsURL(characters, at: index) {
                while index < characters.count, !characters[index].isWhitespace { index += 1 }
                total += 23
                previousIsSpace = false
                continue
            }
            let character = characters[index]
            total += weight(of: character)
            previousIsSpace = character.isWhitespace
            index += 1
        }
        characters.removeAll()
        return total
    }

    private static func startsURL(_ characters: [Character], at index: Int) -> Bool {
        for prefix in ["https://", "http://"] {
            let p = Array(prefix)
            if index + p.count < characters.count, Array(characters[index..<(index + p.count)]) == p {
                return true
            }
        }
        return false
    }

    private static func weight(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        if let first = scalars.first,
            first.properties.isEmojiPresentation
                || (scalars.count > 1 && scalars.contains { $0.properties.isEmoji && $0.value > 0xFF })
        {
            return 2
        }
        return scalars.reduce(0) { sum, scalar in
            switch scalar.value {
            case 0...0x10FF, 0x2000...0x200D, 0x2010...0x201F, 0x2032...0x2037: sum + 1
            default: sum + 2
            }
        }
    }
}
