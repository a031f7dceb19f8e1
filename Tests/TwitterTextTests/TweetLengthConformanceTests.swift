import Foundation
import Testing
@testable import TwitterText

// MARK: - twitter-text conformance (needs ../shared)

/// The weighted-length sections of twitter-text's validate.yml, read at run time so the
/// corpus stays test data. Without ../shared the suite is reported as skipped, not passed;
/// with CI set it runs anyway and fails, so CI cannot silently stop running it.
@Suite(
    "TweetLengthCounter: twitter-text conformance",
    .enabled(
        if: SharedFiles.twitterTextDirectory() != nil || SharedFiles.inCI,
        "needs twitter-text in ../shared beside the repository (or $TWFEED_SHARED); CI runs it regardless"
    )
)
struct TweetLengthConformanceTests {
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
            let result = TweetLengthCounter.measure(testCase.text, configuration: configuration)
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

// MARK: - Locating ../shared

enum SharedFiles {
    /// CI must run the conformance cases: there a missing ../shared fails them.
    static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// `ROOT/../shared/twitter-text`, ROOT found from this file's path (symlinks resolved,
    /// so a scratch package that links this file still finds the real repository), or
    /// `$TWFEED_SHARED/twitter-text`, when it holds `file`; nil (silently) when not.
    static func twitterTextDirectory(holding file: String = "validate.yml", filePath: String = #filePath) -> URL? {
        candidates(filePath: filePath).first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(file).path) }
    }

    /// The directory holding `file`, or nil after recording a failure: the suite runs only
    /// where ../shared was found, or under CI, so a file missing then is a failure.
    static func twitterTextDirectory(
        needing file: String,
        filePath: String = #filePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> URL? {
        if let directory = twitterTextDirectory(holding: file, filePath: filePath) { return directory }
        let tried = candidates(filePath: filePath).map { $0.appendingPathComponent(file).path }
        Issue.record(
            "twitter-text/\(file) not found (tried \(tried.joined(separator: ", "))); CI must run the conformance cases",
            sourceLocation: sourceLocation
        )
        return nil
    }

    private static func candidates(filePath: String) -> [URL] {
        var candidates: [URL] = []
        if let shared = ProcessInfo.processInfo.environment["TWFEED_SHARED"], !shared.isEmpty {
            candidates.append(URL(fileURLWithPath: shared).appendingPathComponent("twitter-text"))
        }
        for source in [URL(fileURLWithPath: filePath).resolvingSymlinksInPath(), URL(fileURLWithPath: filePath)] {
            // ROOT/Tests/TwitterTextTests/<file>.swift -> ROOT/../shared/twitter-text
            let root = source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let directory = root.deletingLastPathComponent().appendingPathComponent("shared/twitter-text").standardizedFileURL
            if !candidates.contains(directory) { candidates.append(directory) }
        }
        return candidates
    }
}
