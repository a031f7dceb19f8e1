import Foundation
import Testing
@testable import TwfeedKit

// MARK: - twitter-text conformance (needs ../shared)

/// The weighted-length sections of twitter-text's validate.yml, read at run time so the
/// corpus stays test data. Without ../shared the tests print why they skipped and pass;
/// with CI set they fail instead, so CI cannot silently stop running them.
@Suite("StatusLengthCounter: twitter-text conformance")
struct StatusLengthConformanceTests {
    @Test("WeightedTweetsCounterTest (config v2)")
    func weightedTweetsCounter() throws {
        try check(section: "WeightedTweetsCounterTest", configuration: .v2)
    }

    @Test("WeightedTweetsWithDiscountedEmojiCounterTest (config v3)")
    func weightedTweetsWithDiscountedEmojiCounter() throws {
        try check(section: "WeightedTweetsWithDiscountedEmojiCounterTest", configuration: .v3)
    }

    /// twitter-text's own runners take their default, v3, for this section (the Objective-C
    /// one takes v2); its texts hold no emoji, so both must agree, and both are checked.
    @Test("UnicodeDirectionalMarkerCounterTest (config v3, and v2 agrees)")
    func unicodeDirectionalMarkerCounter() throws {
        try check(section: "UnicodeDirectionalMarkerCounterTest", configuration: .v3)
        try check(section: "UnicodeDirectionalMarkerCounterTest", configuration: .v2, label: "v2")
    }

    @Test("built-in configurations equal config-v2.json and config-v3.json")
    func builtInConfigurationsMatchUpstream() throws {
        guard let directory = SharedFiles.twitterTextDirectory(needing: "config-v2.json") else { return }
        let v2 = try TwitterTextConfiguration(contentsOf: directory.appendingPathComponent("config-v2.json"))
        let v3 = try TwitterTextConfiguration(contentsOf: directory.appendingPathComponent("config-v3.json"))
        #expect(v2 == .v2)
        #expect(v3 == .v3)
    }

    @Test("TopLevelDomains.swift is up to date with tld_lib.yml")
    func compiledTLDsMatchUpstream() throws {
        guard let directory = SharedFiles.twitterTextDirectory(needing: "tld_lib.yml") else { return }
        let text = try String(contentsOf: directory.appendingPathComponent("tld_lib.yml"), encoding: .utf8)
        var upstream: [String] = []
        for line in text.split(separator: "\n") where line.hasPrefix("- ") {
            var value = String(line.dropFirst(2))
            if value.hasPrefix("'"), value.hasSuffix("'"), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            upstream.append(value)
        }
        // Order matters too: it decides between TLDs that could both end a domain.
        #expect(upstream == TopLevelDomains.country + TopLevelDomains.generic, "rerun scripts/generate-tlds.py")
    }

    private func check(
        section: String,
        configuration: TwitterTextConfiguration,
        label: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard let directory = SharedFiles.twitterTextDirectory(needing: "validate.yml", sourceLocation: sourceLocation) else {
            return
        }
        let file = directory.appendingPathComponent("validate.yml")
        let cases = try ConformanceCase.load(section: section, from: file)
        #expect(!cases.isEmpty, "no cases read from section \(section)", sourceLocation: sourceLocation)

        var passed = 0
        for testCase in cases {
            let result = StatusLengthCounter.measure(testCase.text, configuration: configuration)
            let actual: [String: YAMLValue] = [
                "weightedLength": .int(result.weightedLength),
                "valid": .bool(result.valid),
                "permillage": .int(result.permillage),
                "displayRangeStart": .int(result.displayRangeStart),
                "displayRangeEnd": .int(result.displayRangeEnd),
                "validRangeStart": .int(result.validRangeStart),
                "validRangeEnd": .int(result.validRangeEnd),
            ]
            var casePassed = true
            for (key, expected) in testCase.expected.sorted(by: { $0.key < $1.key }) {
                guard let value = actual[key] else {
                    Issue.record("\(section): \"\(testCase.description)\": unknown expected key \(key)", sourceLocation: sourceLocation)
                    casePassed = false
                    continue
                }
                #expect(value == expected, "\(section): \"\(testCase.description)\": \(key)", sourceLocation: sourceLocation)
                if value != expected { casePassed = false }
            }
            if casePassed { passed += 1 }
        }
        let suffix = label.map { " [\($0)]" } ?? ""
        print("twitter-text \(section)\(suffix): \(passed) of \(cases.count) cases pass")
    }
}

// MARK: - Hand-written cases (run everywhere)

@Suite("StatusLengthCounter")
struct StatusLengthCounterTests {
    @Test("280 ASCII characters fit, 281 do not")
    func asciiLimit() {
        let fits = StatusLengthCounter.measure(String(repeating: "a", count: 280))
        #expect(fits.weightedLength == 280)
        #expect(fits.valid)
        #expect(fits.isPostable)
        #expect(fits.permillage == 1000)
        #expect(fits.validRangeEnd == 279)
        #expect(fits.displayRangeEnd == 279)

        let over = StatusLengthCounter.measure(String(repeating: "a", count: 281))
        #expect(over.weightedLength == 281)
        #expect(!over.valid)
        #expect(!over.isPostable)
        #expect(over.permillage == 1003)
        #expect(over.validRangeEnd == 279)
        #expect(over.displayRangeEnd == 280)
    }

    @Test("numbers for a \"status is 291/280\" message")
    func overLimitMessageNumbers() {
        let result = StatusLengthCounter.measure(String(repeating: "x", count: 291))
        #expect("status is \(result.weightedLength)/\(result.maxWeightedLength)" == "status is 291/280")
        #expect(result.permillage == 1039)
    }

    @Test("CJK characters weigh 2")
    func cjkWeighsTwo() {
        #expect(StatusLengthCounter.measure("日本語").weightedLength == 6)
        #expect(StatusLengthCounter.measure(String(repeating: "字", count: 140)).valid)
        let over = StatusLengthCounter.measure(String(repeating: "字", count: 141))
        #expect(over.weightedLength == 282)
        #expect(!over.valid)
        #expect(over.validRangeEnd == 139)
    }

    @Test("light characters: Latin, general punctuation")
    func lightCharacters() {
        #expect(StatusLengthCounter.measure("café – “ok”").weightedLength == 11)
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
        #expect(StatusLengthCounter.measure(url).weightedLength == 23)
        #expect(StatusLengthCounter.measure("see \(url) now").weightedLength == 4 + 23 + 4)
    }

    @Test("a URL without a scheme counts 23 when it ends in a known TLD")
    func urlWithoutScheme() {
        #expect(StatusLengthCounter.measure("example.com").weightedLength == 23)
        #expect(StatusLengthCounter.measure("read example.com/path/to/page?x=1 later").weightedLength == 5 + 23 + 6)
        #expect(StatusLengthCounter.measure("www.example.co.uk").weightedLength == 23)
        // Not a TLD: just characters.
        #expect(StatusLengthCounter.measure("open file.txt").weightedLength == 13)
        // A sentence's full stop is not part of the URL.
        #expect(StatusLengthCounter.measure("go to example.com.").weightedLength == 6 + 23 + 1)
    }

    @Test("scheme-less URLs are cut down to their ASCII domain")
    func schemelessURLAfterCJK() {
        // The domain regex starts at 日 (any non-punctuation is a domain character), and
        // twitter-text keeps only the ASCII part: 2 CJK characters + 23.
        #expect(StatusLengthCounter.measure("日本example.com").weightedLength == 4 + 23)
    }

    @Test("a domain label longer than 63 characters is not a URL")
    func overlongLabel() {
        let label = String(repeating: "a", count: 64)
        #expect(StatusLengthCounter.measure("https://\(label).com").weightedLength == 8 + 64 + 4)
        let fits = String(repeating: "a", count: 63)
        #expect(StatusLengthCounter.measure("https://\(fits).com").weightedLength == 23)
    }

    @Test("a ZWJ family emoji counts 2 with v3, per code point with v2")
    func familyEmoji() {
        let family = "👨‍👩‍👧‍👦"
        #expect(StatusLengthCounter.measure(family).weightedLength == 2)
        // Four people at 2, three joiners at 1.
        #expect(StatusLengthCounter.measure(family, configuration: .v2).weightedLength == 11)
        #expect(StatusLengthCounter.measure(String(repeating: family, count: 140)).valid)
        #expect(!StatusLengthCounter.measure(String(repeating: family, count: 141)).valid)
    }

    @Test("flags, skin tones, keycaps and presentation selectors count 2 with v3",
          arguments: ["🇯🇵", "👍🏽", "1️⃣", "#⃣", "❤️", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👩🏽‍💻", "🧑‍🤝‍🧑"])
    func emojiSequences(emoji: String) {
        #expect(StatusLengthCounter.measure(emoji).weightedLength == 2)
        #expect(StatusLengthCounter.measure("a\(emoji)b").weightedLength == 4)
    }

    @Test("characters that only look like emoji keep their own weight")
    func notEmoji() {
        #expect(StatusLengthCounter.measure("©").weightedLength == 1)
        #expect(StatusLengthCounter.measure("©️").weightedLength == 2)
        #expect(StatusLengthCounter.measure("#1").weightedLength == 2)
        #expect(StatusLengthCounter.measure("🇯🇵", configuration: .v2).weightedLength == 4)
    }

    @Test("text is NFC-normalized before counting")
    func nfcNormalization() {
        let decomposed = "e\u{301}"
        #expect(decomposed.unicodeScalars.count == 2)
        let result = StatusLengthCounter.measure(decomposed)
        #expect(result.weightedLength == 1)
        // Ranges stay offsets into the text as given.
        #expect(result.displayRangeEnd == 1)
        let composed = StatusLengthCounter.measure("caf\u{E9}")
        let decomposedCafe = StatusLengthCounter.measure("cafe\u{301}")
        #expect(composed.weightedLength == 4)
        #expect(decomposedCafe.weightedLength == 4)
        #expect(composed.displayRangeEnd == 3)
        #expect(decomposedCafe.displayRangeEnd == 4)
    }

    @Test("empty and whitespace-only text is refused, separately from twitter-text's verdict")
    func blankText() {
        let empty = StatusLengthCounter.measure("")
        #expect(empty.weightedLength == 0)
        #expect(!empty.valid)
        #expect(empty.isBlank)
        #expect(!empty.isPostable)
        #expect(empty.displayRangeEnd == 0)

        for blank in [" ", "   \n\t  ", "\u{3000}", "\u{200B}", " \u{200D} "] {
            let result = StatusLengthCounter.measure(blank)
            #expect(result.valid, "twitter-text accepts \(blank.debugDescription)")
            #expect(result.isBlank, "\(blank.debugDescription) is blank")
            #expect(!result.isPostable)
        }
        #expect(StatusLengthCounter.measure(" a ").isPostable)
        #expect(!StatusLengthCounter.isBlank("."))
    }

    @Test("twitter-text's invalid characters make a status invalid")
    func invalidCharacters() {
        for character in ["\u{FFFE}", "\u{FEFF}", "\u{FFFF}"] {
            let result = StatusLengthCounter.measure("abc\(character)def")
            #expect(!result.valid)
            #expect(result.validRangeEnd == 2)
        }
    }

    @Test("a URL longer than twitter-text's 4,096 characters is text")
    func urlLengthLimit() {
        // twitter-text adds the scheme's length to the URL's own (which includes it).
        let longest = "https://example.com/" + String(repeating: "a", count: 4096 - 8 - 20)
        #expect(StatusLengthCounter.measure(longest).weightedLength == 23)
        #expect(StatusLengthCounter.measure(longest + "a").weightedLength == 4089)
    }

    @Test("long inputs finish and do not overflow the stack")
    func longInputs() {
        let dotted = String(repeating: "a.", count: 1_000) + "com"
        #expect(StatusLengthCounter.measure(dotted).weightedLength == 23)
        let manyLabels = String(repeating: "a.", count: 20_000) + "com"
        #expect(StatusLengthCounter.measure(manyLabels).weightedLength == 40_003)
        let cjk = String(repeating: "字", count: 20_000) + ".com"
        #expect(StatusLengthCounter.measure(cjk).weightedLength == 40_004)
        let parens = "https://example.com/" + String(repeating: "(a)", count: 1_000)
        #expect(StatusLengthCounter.measure(parens).weightedLength == 23)
        let manyParens = "https://example.com/" + String(repeating: "(a)", count: 10_000)
        #expect(StatusLengthCounter.measure(manyParens).weightedLength == 30_020)
        let emoji = String(repeating: "👍🏽\u{200D}", count: 10_000)
        #expect(StatusLengthCounter.measure(emoji).weightedLength > 0)
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
}

// MARK: - Locating ../shared

private enum SharedFiles {
    /// `ROOT/../shared/twitter-text`, ROOT found from this file's path (symlinks resolved,
    /// so a scratch package that links this file still finds the real repository), or
    /// `$TWFEED_SHARED/twitter-text`. `nil` after reporting when the file is missing:
    /// a skip note locally, a failure under CI.
    static func twitterTextDirectory(
        needing file: String,
        filePath: String = #filePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> URL? {
        var candidates: [URL] = []
        if let shared = ProcessInfo.processInfo.environment["TWFEED_SHARED"], !shared.isEmpty {
            candidates.append(URL(fileURLWithPath: shared).appendingPathComponent("twitter-text"))
        }
        for source in [URL(fileURLWithPath: filePath).resolvingSymlinksInPath(), URL(fileURLWithPath: filePath)] {
            // ROOT/Tests/TwfeedKitTests/StatusLengthTests.swift -> ROOT/../shared/twitter-text
            let root = source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let directory = root.deletingLastPathComponent().appendingPathComponent("shared/twitter-text").standardizedFileURL
            if !candidates.contains(directory) { candidates.append(directory) }
        }
        for directory in candidates
        where FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path) {
            return directory
        }
        let tried = candidates.map { $0.appendingPathComponent(file).path }
        if ProcessInfo.processInfo.environment["CI"] != nil {
            Issue.record(
                "twitter-text/\(file) not found (tried \(tried.joined(separator: ", "))); CI must run the conformance cases",
                sourceLocation: sourceLocation
            )
        } else {
            print("skipped: twitter-text/\(file) not found (tried \(tried.joined(separator: ", "))); it lives in ../shared beside the repository, or set TWFEED_SHARED")
        }
        return nil
    }
}

// MARK: - A YAML reader for exactly what the weighted-length sections use

/// Block mappings and sequences by indentation, double- and single-quoted scalars with
/// YAML escapes (`\U0001f431`, `\u200F`, `\n`, `\"`, `\\`, …), integers, booleans and
/// plain strings. Anything else (flow collections, block scalars, anchors, tags, multi-line
/// quoted strings) is an error, so a change in the corpus fails loudly instead of being
/// misread. Works on Unicode scalars: the corpus has combining marks next to quotes,
/// which Character-based parsing would glue together.
private indirect enum YAMLValue: Equatable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case list([YAMLValue])
    case map([String: YAMLValue])
}

private struct YAMLError: Error, CustomStringConvertible {
    let line: Int
    let message: String
    var description: String { "validate.yml line \(line): \(message)" }
}

private struct ConformanceCase {
    let description: String
    let text: String
    let expected: [String: YAMLValue]

    static func load(section: String, from file: URL) throws -> [ConformanceCase] {
        let source = try String(contentsOf: file, encoding: .utf8)
        guard case .list(let items) = try MiniYAML.section(section, in: source) else {
            throw YAMLError(line: 0, message: "section \(section) is not a list")
        }
        return try items.map { item in
            guard case .map(let fields) = item,
                  case .string(let description)? = fields["description"],
                  case .string(let text)? = fields["text"],
                  case .map(let expected)? = fields["expected"] else {
                throw YAMLError(line: 0, message: "a case in \(section) lacks description, text or an expected map")
            }
            return ConformanceCase(description: description, text: text, expected: expected)
        }
    }
}

private struct MiniYAML {
    private struct Line {
        let number: Int
        let indent: Int
        let content: [Unicode.Scalar]
    }

    private var lines: [Line]
    private var position = 0

    /// The value under `  name:` in the document's top-level `tests:` mapping.
    static func section(_ name: String, in source: String) throws -> YAMLValue {
        var all: [Line] = []
        var current: [Unicode.Scalar] = []
        var number = 1
        func finish() {
            if current.last == "\r" { current.removeLast() }
            var indent = 0
            while indent < current.count, current[indent] == " " { indent += 1 }
            let content = Array(current[indent...])
            if !content.isEmpty, content.first != "#", !(content.allSatisfy { $0 == " " || $0 == "\t" }) {
                all.append(Line(number: number, indent: indent, content: content))
            }
            current = []
            number += 1
        }
        for scalar in source.unicodeScalars {
            if scalar == "\n" { finish() } else { current.append(scalar) }
        }
        finish()

        let header = Array("\(name):".unicodeScalars)
        guard let start = all.firstIndex(where: { $0.content == header }) else {
            throw YAMLError(line: 0, message: "section \(name) not found")
        }
        let sectionIndent = all[start].indent
        var end = start + 1
        while end < all.count, all[end].indent > sectionIndent { end += 1 }
        guard end > start + 1 else { return .null }
        var reader = MiniYAML(lines: Array(all[(start + 1)..<end]))
        let value = try reader.block(indent: reader.lines[0].indent)
        guard reader.position == reader.lines.count else {
            throw YAMLError(line: reader.lines[reader.position].number, message: "unexpected indentation")
        }
        return value
    }

    private init(lines: [Line]) {
        self.lines = lines
    }

    private mutating func block(indent: Int) throws -> YAMLValue {
        let line = lines[position]
        if line.content.first == "-", line.content.count == 1 || line.content[1] == " " {
            return try sequence(indent: indent)
        }
        return try mapping(indent: indent)
    }

    private mutating func sequence(indent: Int) throws -> YAMLValue {
        var items: [YAMLValue] = []
        while position < lines.count, lines[position].indent == indent, lines[position].content.first == "-" {
            let line = lines[position]
            var rest = Array(line.content.dropFirst())
            var offset = 1
            while rest.first == " " { rest.removeFirst(); offset += 1 }
            if rest.isEmpty {
                position += 1
                guard position < lines.count, lines[position].indent > indent else { items.append(.null); continue }
                items.append(try block(indent: lines[position].indent))
            } else {
                // "- key: value" opens a mapping whose keys line up with "key".
                lines[position] = Line(number: line.number, indent: indent + offset, content: rest)
                items.append(try block(indent: indent + offset))
            }
        }
        return .list(items)
    }

    private mutating func mapping(indent: Int) throws -> YAMLValue {
        var fields: [String: YAMLValue] = [:]
        while position < lines.count, lines[position].indent == indent {
            let line = lines[position]
            guard line.content.first != "-" else { break }
            guard let colon = keyEnd(line.content) else {
                throw YAMLError(line: line.number, message: "expected \"key: value\"")
            }
            let key = String(String.UnicodeScalarView(line.content[..<colon]))
            var rest = Array(line.content[(colon + 1)...])
            while rest.first == " " { rest.removeFirst() }
            position += 1
            if rest.isEmpty || rest.first == "#" {
                if position < lines.count, lines[position].indent > indent {
                    fields[key] = try block(indent: lines[position].indent)
                } else {
                    fields[key] = .null
                }
            } else {
                fields[key] = try scalar(rest, line: line.number)
            }
        }
        return .map(fields)
    }

    /// Index of the ":" ending a plain key.
    private func keyEnd(_ content: [Unicode.Scalar]) -> Int? {
        guard let first = content.first, !"\"'[{&*!|>%@`".unicodeScalars.contains(first) else { return nil }
        for index in content.indices where content[index] == ":" {
            if index + 1 == content.count || content[index + 1] == " " { return index }
        }
        return nil
    }

    private func scalar(_ content: [Unicode.Scalar], line: Int) throws -> YAMLValue {
        switch content.first {
        case "\"":
            return .string(try doubleQuoted(content, line: line))
        case "'":
            return .string(try singleQuoted(content, line: line))
        case "[", "{", "|", ">", "&", "*", "!", "%", "@", "`":
            throw YAMLError(line: line, message: "unsupported YAML syntax \(String(String.UnicodeScalarView(content)))")
        default:
            var plain = content
            if let comment = (plain.indices.first { index in
                plain[index] == "#" && index > 0 && plain[index - 1] == " "
            }) {
                plain = Array(plain[..<comment])
            }
            while plain.last == " " || plain.last == "\t" { plain.removeLast() }
            let text = String(String.UnicodeScalarView(plain))
            switch text {
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            case "null", "~", "": return .null
            default: return Int(text).map(YAMLValue.int) ?? .string(text)
            }
        }
    }

    private func singleQuoted(_ content: [Unicode.Scalar], line: Int) throws -> String {
        var result = String.UnicodeScalarView()
        var index = 1
        while index < content.count {
            let scalar = content[index]
            if scalar == "'" {
                if index + 1 < content.count, content[index + 1] == "'" {
                    result.append("'")
                    index += 2
                    continue
                }
                try expectEnd(content, after: index, line: line)
                return String(result)
            }
            result.append(scalar)
            index += 1
        }
        throw YAMLError(line: line, message: "unterminated or multi-line single-quoted string")
    }

    private func doubleQuoted(_ content: [Unicode.Scalar], line: Int) throws -> String {
        var result = String.UnicodeScalarView()
        var pendingHighSurrogate: UInt32?
        var index = 1
        while index < content.count {
            let scalar = content[index]
            if scalar == "\"" {
                guard pendingHighSurrogate == nil else { throw YAMLError(line: line, message: "unpaired surrogate escape") }
                try expectEnd(content, after: index, line: line)
                return String(result)
            }
            guard scalar == "\\" else {
                guard pendingHighSurrogate == nil else { throw YAMLError(line: line, message: "unpaired surrogate escape") }
                result.append(scalar)
                index += 1
                continue
            }
            guard index + 1 < content.count else { break }
            let escape = content[index + 1]
            index += 2
            let simple: [Unicode.Scalar: Unicode.Scalar] = [
                "0": "\u{0}", "a": "\u{7}", "b": "\u{8}", "t": "\t", "\t": "\t", "n": "\n", "v": "\u{B}",
                "f": "\u{C}", "r": "\r", "e": "\u{1B}", " ": " ", "\"": "\"", "/": "/", "\\": "\\",
                "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
            ]
            if let replacement = simple[escape] {
                guard pendingHighSurrogate == nil else { throw YAMLError(line: line, message: "unpaired surrogate escape") }
                result.append(replacement)
                continue
            }
            let digits: Int
            switch escape {
            case "x": digits = 2
            case "u": digits = 4
            case "U": digits = 8
            default: throw YAMLError(line: line, message: "unknown escape \\\(escape)")
            }
            guard index + digits <= content.count,
                  let value = UInt32(String(String.UnicodeScalarView(content[index..<(index + digits)])), radix: 16) else {
                throw YAMLError(line: line, message: "bad \\\(escape) escape")
            }
            index += digits
            // Some corpora spell astral characters as \u surrogate pairs; accept those.
            if (0xD800...0xDBFF).contains(value) {
                guard pendingHighSurrogate == nil else { throw YAMLError(line: line, message: "unpaired surrogate escape") }
                pendingHighSurrogate = value
                continue
            }
            var codePoint = value
            if let high = pendingHighSurrogate {
                guard (0xDC00...0xDFFF).contains(value) else { throw YAMLError(line: line, message: "unpaired surrogate escape") }
                codePoint = 0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)
                pendingHighSurrogate = nil
            }
            guard let decoded = Unicode.Scalar(codePoint) else {
                throw YAMLError(line: line, message: "escape \\\(escape) is not a Unicode scalar")
            }
            result.append(decoded)
        }
        throw YAMLError(line: line, message: "unterminated or multi-line double-quoted string")
    }

    /// Only spaces or a comment may follow a closing quote.
    private func expectEnd(_ content: [Unicode.Scalar], after index: Int, line: Int) throws {
        let rest = content[(index + 1)...].drop { $0 == " " || $0 == "\t" }
        guard rest.isEmpty || rest.first == "#" else {
            throw YAMLError(line: line, message: "text after a quoted string")
        }
    }
}
