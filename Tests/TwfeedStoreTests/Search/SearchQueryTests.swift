import Testing
@testable import TwfeedCore
@testable import TwfeedStore

struct SearchQueryTests {
    @Test func wordsPhrasesAndAuthorsAreSeparated() throws {
        let query = try SearchQuery(parsing: #"  coffee "flat white" from:@Alice_1 morning "#)
        #expect(query.terms == [.word("coffee"), .phrase("flat white"), .word("morning")])
        #expect(query.authors == ["alice_1"])
    }

    @Test func severalAuthorsAndNoWordsAreAQuery() throws {
        let query = try SearchQuery(parsing: "from:bob FROM:carol")
        #expect(query.terms.isEmpty)
        #expect(query.authors == ["bob", "carol"])
    }

    @Test(arguments: [
        ("", "search: empty query"),
        ("   ", "search: empty query"),
        (#"say "hello"#, "search: unclosed quote in 'say \"hello'"),
        (#"a "  " b"#, #"search: the phrase "  " has no word to search for"#),
        ("from:", "search: from: needs a username (from:name)"),
        ("coffee from:@", "search: from:@ needs a username (from:name)"),
        ("from:al!ce", "search: from:al!ce: a username has only letters, digits and _"),
        ("!!! ***", "search: nothing to search for in '!!! ***' (words need a letter or digit)"),
    ])
    func aQueryThatCannotBeParsedIsAUsageErrorNamingTheProblem(query: String, message: String) {
        #expect(throws: TwfeedError(.usage, message)) { try SearchQuery(parsing: query) }
    }

    @Test func punctuationOnlyWordsAreDroppedNotSearchedAsEmptyPhrases() throws {
        #expect(try SearchQuery(parsing: "café — 42 !").terms == [.word("café"), .word("42")])
    }

    @Test func ftsSyntaxIsQuotedIntoLiteralPhrases() throws {
        let query = try SearchQuery(parsing: #"NEAR(a b) OR * ^x col:y don"t AND"#)
        let match = SearchMatch.tweets(query.terms, authorsMatching: query.terms.map { _ in [] }, fromAuthors: nil)
        #expect(match == #"(text : "NEAR(a") AND (text : "b)") AND (text : "OR") AND (text : "^x") AND (text : "col:y") AND (text : "don""t") AND (text : "AND")"#)
    }

    @Test func aTermSomeAuthorsHoldAlsoMatchesTheirTweetsAndFromIsAnAlternativeOfAuthors() {
        let match = SearchMatch.tweets([.word("alice")], authorsMatching: [[7, 9]], fromAuthors: [3])
        #expect(match == #"(text : "alice" OR author : ("a7" OR "a9")) AND author : ("a3")"#)
    }
}
