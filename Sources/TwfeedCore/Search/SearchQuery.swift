/// What `twfeed search QUERY` asks for, parsed: the words and phrases that must all
/// match, and the authors (`from:`) the tweets must come from.
///
/// The user's text never reaches FTS5's query syntax: each word or phrase is kept as a
/// literal and quoted when the MATCH string is built (`SearchMatch`), so `AND`, `NEAR`,
/// `*`, `^`, `:` or a stray `"` in a query mean themselves and cannot break the query.
package struct SearchQuery: Sendable, Equatable {
    /// A word or a phrase: the tweet's text, or its author's username or name, must
    /// hold it (case- and accent-insensitive, as FTS5's tokenizer folds them).
    package enum Term: Sendable, Equatable {
        case word(String)
        case phrase(String)

        /// The literal text the tokenizer splits, whatever the kind.
        package var text: String {
            switch self {
            case .word(let text), .phrase(let text): text
            }
        }
    }

    /// All must match.
    package var terms: [Term]
    /// Lowercased, without `@`; when several are given a tweet from any of them matches
    /// (a tweet has one author, so "all of them" could never match).
    package var authors: [String]

    package init(terms: [Term], authors: [String]) {
        self.terms = terms
        self.authors = authors
    }

    /// Parses the user's query.
    ///
    /// - Throws: `.usage` naming the problem: an empty query, an unclosed quote, an empty
    ///   phrase, `from:` without a valid username, or only words with nothing to search
    ///   for (punctuation and symbols the tokenizer drops).
    package init(parsing query: String) throws {
        var terms: [Term] = []
        var authors: [String] = []
        var index = query.startIndex
        while index < query.endIndex {
            let character = query[index]
            if character.isWhitespace {
                index = query.index(after: index)
            } else if character == "\"" {
                let start = query.index(after: index)
                guard let end = query[start...].firstIndex(of: "\"") else {
                    throw TwfeedError(.usage, "search: unclosed quote in \(Self.quoted(query))")
                }
                let phrase = String(query[start..<end])
                guard Self.isSearchable(phrase) else {
                    throw TwfeedError(.usage, "search: the phrase \"\(phrase)\" has no word to search for")
                }
                terms.append(.phrase(phrase))
                index = query.index(after: end)
            } else {
                // A word runs to the next space or opening quote; a quote inside a word
                // (don"t) is part of it and harmless once quoted.
                var end = query.index(after: index)
                while end < query.endIndex, !query[end].isWhitespace { end = query.index(after: end) }
                let word = String(query[index..<end])
                index = end
                if word.lowercased().hasPrefix("from:") {
                    authors.append(try Self.username(in: word))
                } else if Self.isSearchable(word) {
                    terms.append(.word(word))
                }
            }
        }
        if terms.isEmpty && authors.isEmpty {
            let blank = query.allSatisfy(\.isWhitespace)
            throw TwfeedError(
                .usage,
                blank ? "search: empty query" : "search: nothing to search for in \(Self.quoted(query)) (words need a letter or digit)"
            )
        }
        self.init(terms: terms, authors: authors)
    }

    /// The name after `from:`, as X allows it: letters, digits and `_`, an optional `@`.
    private static func username(in word: String) throws -> String {
        var name = Substring(word.dropFirst("from:".count))
        if name.hasPrefix("@") { name = name.dropFirst() }
        guard !name.isEmpty else {
            throw TwfeedError(.usage, "search: \(word) needs a username (from:name)")
        }
        guard name.count <= 50, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw TwfeedError(.usage, "search: \(word): a username has only letters, digits and _")
        }
        return name.lowercased()
    }

    /// Whether the tokenizer (unicode61: letters, numbers and private-use characters
    /// make tokens) finds a word in `text`; one it does not would be an empty phrase.
    static func isSearchable(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .decimalNumber, .letterNumber, .otherNumber, .privateUse:
                true
            default:
                false
            }
        }
    }

    private static func quoted(_ query: String) -> String {
        "'\(query.count > 60 ? query.prefix(60) + "…" : query)'"
    }
}
