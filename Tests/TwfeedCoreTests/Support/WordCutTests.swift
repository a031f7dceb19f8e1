import Testing
@testable import TwfeedCore

/// `twfeed outbox` lists a status on one line, cut at a word, never inside one.
struct WordCutTests {
    @Test(arguments: [
        ("short enough", "short enough"),
        ("exactly forty characters long, no cut!!!", "exactly forty characters long, no cut!!!"),
        ("Hello from the twfeed demo, 2026-11-28T09:00:00Z", "Hello from the twfeed demo,…"),
        ("a sentence with some words that runs past the limit", "a sentence with some words that runs…"),
        ("https://example.com/a/very/long/path/without/spaces/at/all", "https://example.com/a/very/long/path/wi…"),
    ])
    func cutsAtTheLastWordThatFits(text: String, expected: String) {
        let cut = text.cutAtWord(limit: 40)
        #expect(cut == expected)
        #expect(cut.count <= 40)
    }
}
