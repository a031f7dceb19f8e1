import Foundation
import Testing
@testable import TwitterText

// MARK: - Hand-written cases (run everywhere)

@Suite("TweetLengthCounter")
struct TweetLengthCounterTests {
    @Test("280 ASCII characters fit, 281 do not")
    func asciiLimit() {
        let fits = TweetLengthCounter.measure(String(repeating: "a", count: 280))
        #expect(fits.weightedLength == 280)
        #expect(fits.valid)
        #expect(fits.isPostable)
        #expect(fits.permillage == 1000)
        #expect(fits.validRangeEnd == 279)
        #expect(fits.displayRangeEnd == 279)

        let over = TweetLengthCounter.measure(String(repeating: "a", count: 281))
        #expect(over.weightedLength == 281)
        #expect(!over.valid)
        #expect(!over.isPostable)
        #expect(over.permillage == 1003)
        #expect(over.validRangeEnd == 279)
        #expect(over.displayRangeEnd == 280)
    }

    @Test("numbers for a \"status is 291/280\" message")
    func overLimitMessageNumbers() {
        let result = TweetLengthCounter.measure(String(repeating: "x", count: 291))
        #expect("status is \(result.weightedLength)/\(result.maxWeightedLength)" == "status is 291/280")
        #expect(result.permillage == 1039)
    }

    @Test("CJK characters weigh 2")
    func cjkWeighsTwo() {
        #expect(TweetLengthCounter.measure("日本語").weightedLength == 6)
        #expect(TweetLengthCounter.measure(String(repeating: "字", count: 140)).valid)
        let over = TweetLengthCounter.measure(String(repeating: "字", count: 141))
        #expect(over.weightedLength == 282)
        #expect(!over.valid)
        #expect(over.validRangeEnd == 139)
    }

    @Test("light characters: Latin, general punctuation")
    func lightCharacters() {
        #expect(TweetLengthCounter.measure("café – “ok”").weightedLength == 11)
    }

    @Test("a URL with a scheme counts 23 whatever its length",
          arguments: [
              "https://example.com",
              "http://t.co",
              "https://www.example.com/a/very/long/path/that/goes/on/and/on/and/on?with=query&and=more#fragment",
              "HTTPS://WWW.EXAMPLE.COM/index.html",
              "https://t.co/abc123",
          ])
    func urlWithScheme(url: String) {
        #expect(TweetLengthCounter.measure(url).weightedLength == 23)
        #expect(TweetLengthCounter.measure("see \(url) now").weightedLength == 4 + 23 + 4)
    }

    @Test("a URL without a scheme counts 23 when it ends in a known TLD")
    func urlWithoutScheme() {
        #expect(TweetLengthCounter.measure("example.com").weightedLength == 23)
        #expect(TweetLengthCounter.measure("read example.com/path/to/page?x=1 later").weightedLength == 5 + 23 + 6)
        #expect(TweetLengthCounter.measure("www.example.co.uk").weightedLength == 23)
        // Not a TLD: just characters.
        #expect(TweetLengthCounter.measure("open file.txt").weightedLength == 13)
        // A sentence's full stop is not part of the URL.
        #expect(TweetLengthCounter.measure("go to example.com.").weightedLength == 6 + 23 + 1)
    }

    @Test("scheme-less URLs are cut down to their ASCII domain")
    func schemelessURLAfterCJK() {
        // The domain regex starts at 日 (any non-punctuation is a domain character), and
        // twitter-text keeps only the ASCII part: 2 CJK characters + 23.
        #expect(TweetLengthCounter.measure("日本example.com").weightedLength == 4 + 23)
    }

    @Test("a domain label longer than 63 characters is not a URL")
    func overlongLabel() {
        let label = String(repeating: "a", count: 64)
        #expect(TweetLengthCounter.measure("https://\(label).com").weightedLength == 8 + 64 + 4)
        let fits = String(repeating: "a", count: 63)
        #expect(TweetLengthCounter.measure("https://\(fits).com").weightedLength == 23)
    }

    @Test("a ZWJ family emoji counts 2 with v3, per code point with v2")
    func familyEmoji() {
        let family = "👨‍👩‍👧‍👦"
        #expect(TweetLengthCounter.measure(family).weightedLength == 2)
        // Four people at 2, three joiners at 1.
        #expect(TweetLengthCounter.measure(family, configuration: .v2).weightedLength == 11)
        #expect(TweetLengthCounter.measure(String(repeating: family, count: 140)).valid)
        #expect(!TweetLengthCounter.measure(String(repeating: family, count: 141)).valid)
    }

    @Test("flags, skin tones, keycaps and presentation selectors count 2 with v3",
          arguments: ["🇯🇵", "👍🏽", "1️⃣", "#⃣", "❤️", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👩🏽‍💻", "🧑‍🤝‍🧑"])
    func emojiSequences(emoji: String) {
        #expect(TweetLengthCounter.measure(emoji).weightedLength == 2)
        #expect(TweetLengthCounter.measure("a\(emoji)b").weightedLength == 4)
    }

    @Test("characters that only look like emoji keep their own weight")
    func notEmoji() {
        #expect(TweetLengthCounter.measure("©").weightedLength == 1)
        #expect(TweetLengthCounter.measure("©️").weightedLength == 2)
        #expect(TweetLengthCounter.measure("#1").weightedLength == 2)
        #expect(TweetLengthCounter.measure("🇯🇵", configuration: .v2).weightedLength == 4)
    }

    @Test("text is NFC-normalized before counting")
    func nfcNormalization() {
        let decomposed = "e\u{301}"
        #expect(decomposed.unicodeScalars.count == 2)
        let result = TweetLengthCounter.measure(decomposed)
        #expect(result.weightedLength == 1)
        // Ranges stay offsets into the text as given.
        #expect(result.displayRangeEnd == 1)
        let composed = TweetLengthCounter.measure("caf\u{E9}")
        let decomposedCafe = TweetLengthCounter.measure("cafe\u{301}")
        #expect(composed.weightedLength == 4)
        #expect(decomposedCafe.weightedLength == 4)
        #expect(composed.displayRangeEnd == 3)
        #expect(decomposedCafe.displayRangeEnd == 4)
    }

    @Test("empty and whitespace-only text is refused, separately from twitter-text's verdict")
    func blankText() {
        let empty = TweetLengthCounter.measure("")
        #expect(empty.weightedLength == 0)
        #expect(!empty.valid)
        #expect(empty.isBlank)
        #expect(!empty.isPostable)
        #expect(empty.displayRangeEnd == 0)

        for blank in [" ", "   \n\t  ", "\u{3000}", "\u{200B}", " \u{200D} "] {
            let result = TweetLengthCounter.measure(blank)
            #expect(result.valid, "twitter-text accepts \(blank.debugDescription)")
            #expect(result.isBlank, "\(blank.debugDescription) is blank")
            #expect(!result.isPostable)
        }
        #expect(TweetLengthCounter.measure(" a ").isPostable)
        #expect(!TweetLengthCounter.isBlank("."))
    }

    @Test("twitter-text's invalid characters make a status invalid")
    func invalidCharacters() {
        for character in ["\u{FFFE}", "\u{FEFF}", "\u{FFFF}"] {
            let result = TweetLengthCounter.measure("abc\(character)def")
            #expect(!result.valid)
            #expect(result.validRangeEnd == 2)
        }
    }

    @Test("a URL longer than twitter-text's 4,096 characters is text")
    func urlLengthLimit() {
        // twitter-text adds the scheme's length to the URL's own (which includes it).
        let longest = "https://example.com/" + String(repeating: "a", count: 4096 - 8 - 20)
        #expect(TweetLengthCounter.measure(longest).weightedLength == 23)
        #expect(TweetLengthCounter.measure(longest + "a").weightedLength == 4089)
    }

    @Test("long inputs finish and do not overflow the stack")
    func longInputs() {
        let dotted = String(repeating: "a.", count: 1_000) + "com"
        #expect(TweetLengthCounter.measure(dotted).weightedLength == 23)
        let manyLabels = String(repeating: "a.", count: 20_000) + "com"
        #expect(TweetLengthCounter.measure(manyLabels).weightedLength == 40_003)
        let cjk = String(repeating: "字", count: 20_000) + ".com"
        #expect(TweetLengthCounter.measure(cjk).weightedLength == 40_004)
        let parens = "https://example.com/" + String(repeating: "(a)", count: 1_000)
        #expect(TweetLengthCounter.measure(parens).weightedLength == 23)
        let manyParens = "https://example.com/" + String(repeating: "(a)", count: 10_000)
        #expect(TweetLengthCounter.measure(manyParens).weightedLength == 30_020)
        let emoji = String(repeating: "👍🏽\u{200D}", count: 10_000)
        #expect(TweetLengthCounter.measure(emoji).weightedLength > 0)
    }

    @Test("configurations decode from twitter-text's JSON")
    func configurationJSON() throws {
        let v2 = """
        {"version": 2, "maxWeightedTweetLength": 280, "scale": 100, "defaultWeight": 200,
         "transformedURLLength": 23, "ranges": [
          {"start": 0, "end": 4351, "weight": 100}, {"start": 8192, "end": 8205, "weight": 100},
          {"start": 8208, "end": 8223, "weight": 100}, {"start": 8242, "end": 8247, "weight": 100}]}
        """
        let decoded = try JSONDecoder().decode(TwitterTextConfiguration.self, from: Data(v2.utf8))
        #expect(decoded == .v2)
        #expect(!decoded.emojiParsingEnabled)

        let broken = #"{"version": 9, "maxWeightedTweetLength": 0, "scale": 0, "defaultWeight": 200, "transformedURLLength": 23, "ranges": []}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TwitterTextConfiguration.self, from: Data(broken.utf8))
        }
    }

    @Test("punycode matches RFC 3492's examples")
    func punycode() {
        func encode(_ text: String) -> String? {
            URLDetector.Punycode.encode(text.unicodeScalars.map(\.value))
        }
        #expect(encode("bücher") == "bcher-kva")
        #expect(encode("ليهمابتكلموشعربي؟") == "egbpdaj6bu4bxfgehfvwxn")
        #expect(encode("そのスピードで") == "d9juau41awczczp")
        #expect(encode("3年B組金八先生") == "3B-ww4c5e180e575a65lsy2b")
        let label = Array("あいうえお".utf16)
        #expect(URLDetector.Punycode.asciiLength(ofLabel: label[...]) == 4 + "l8jegik".count)
    }

    @Test("urlCount finds what the API links: schemes and bare domains, not plain words")
    func urlCountFindsWhatTheAPILinks() {
        #expect(TweetLengthCounter.urlCount(in: "no link here, just words.") == 0)
        #expect(TweetLengthCounter.urlCount(in: "see example.com") == 1)
        #expect(TweetLengthCounter.urlCount(in: "https://x.com/a and http://example.org/b?c=d") == 2)
        // NFC first, as `measure` does: a decomposed accent does not hide the domain.
        #expect(TweetLengthCounter.urlCount(in: "cafe\u{301} at example.com") == 1)
    }
}
