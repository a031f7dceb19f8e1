import TwfeedCore

/// Builds FTS5 MATCH strings from a parsed `SearchQuery`: every user text goes in as a
/// quoted string (a phrase to FTS5, `"` doubled), so no query syntax of the user's can
/// take effect, and every term carries its column filter.
enum SearchMatch {
    /// A string literal to FTS5: the tokenizer splits it into a phrase; nothing in it is
    /// an operator.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    /// The token `tweetSearch.author` holds for an author id (`tweetSearchSource`).
    static func authorToken(_ id: Int64) -> String {
        "a\(id)"
    }

    /// The MATCH for `tweetSearch`: every term in the text, or (for a term some
    /// authors' username or name holds) by one of those authors; and, with `from:`, by
    /// one of `fromAuthors`.
    ///
    /// Cost: FTS5 merges an OR of n author tokens step by step, so a term that names
    /// many users (a first name shared by hundreds of followed accounts) costs more: at
    /// 200,000 tweets about 1 ms for 10 authors, 50 ms for 100, 200 ms for 500.
    ///
    /// - Parameters:
    ///   - authorsMatching: for each term, the ids of the users whose username or name
    ///     holds it (from `userSearch`).
    ///   - fromAuthors: nil without `from:`; else the ids the names resolved to (empty
    ///     when none is known: nothing can match, and the caller need not ask).
    static func tweets(_ terms: [SearchQuery.Term], authorsMatching: [[Int64]], fromAuthors: [Int64]?) -> String {
        var clauses: [String] = []
        for (term, authors) in zip(terms, authorsMatching) {
            let inText = "text : \(quoted(term.text))"
            clauses.append(authors.isEmpty ? "(\(inText))" : "(\(inText) OR \(byAuthors(authors)))")
        }
        if let fromAuthors { clauses.append(byAuthors(fromAuthors)) }
        return clauses.joined(separator: " AND ")
    }

    /// The MATCH for `userSearch` (username and name) for one term.
    static func users(_ term: SearchQuery.Term) -> String {
        quoted(term.text)
    }

    private static func byAuthors(_ ids: [Int64]) -> String {
        "author : (" + ids.map { quoted(authorToken($0)) }.joined(separator: " OR ") + ")"
    }
}
