import Testing
import TwfeedCore

/// The outbox's own rules on top of twitter-text, and the messages `twfeed post` prints.
struct PostValidatorTests {
    @Test("a post that fits is returned with its length")
    func fits() throws {
        let length = try PostValidator.validate(String(repeating: "a", count: 280))
        #expect(length.weightedLength == 280)
        #expect(length.isPostable)
    }

    @Test("too long, blank and invalid posts are refused with exit 65 and the CLI's messages")
    func refusals() {
        let cases = [
            (String(repeating: "x", count: 291), "status is 291/280 characters"),
            ("", "status is empty"),
            ("  \n\t", "status is empty"),
            ("abc\u{FFFE}def", "status contains a character the API refuses (U+FFFE, U+FEFF or U+FFFF)"),
        ]
        for (text, message) in cases {
            #expect(throws: TwfeedError(.invalidData, message)) { try PostValidator.validate(text) }
        }
        #expect(TwfeedError.Code.invalidData.exitCode == 65)
    }
}
