import Foundation
import Testing
import TwfeedTesting

/// The README and docs/ send a reader to files: every repository path they name
/// (`Sources/…`, `Tests/…`, `scripts/…`, `systemd/…`, `packaging/…`, `docs/…`,
/// `config.example.json`, `.ci/run`) must exist, so a file moved or renamed takes its
/// mentions along. A path with `*` must match at least one file.
struct DocumentedPathsTests {
    static let root = Repository.root()

    /// A path begins a word (not inside `/etc/systemd/…` or a URL) and ends before
    /// the punctuation that follows it in a sentence.
    static var path: Regex<(Substring, Substring)> { #/(?:^|[^A-Za-z0-9_./@~-])((?:Sources|Tests|scripts|systemd|packaging|docs)/[A-Za-z0-9_.+*@\-/]*[A-Za-z0-9_*+@/-]|config\.example\.json|\.ci/run)/# }

    struct Mention: CustomStringConvertible {
        var document: String
        var line: Int
        var path: String
        var description: String { "\(document):\(line) names \(path), which does not exist" }
    }

    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    static func mentions(in document: String) throws -> [Mention] {
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { index, line in
            line.matches(of: path).map { Mention(document: document, line: index + 1, path: String($0.1)) }
        }
    }

    static func exists(_ path: String) -> Bool {
        guard path.contains("*") else { return FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) }
        // A glob: `*` stands for any run of characters within one path component.
        let parts = path.split(separator: "/").map(String.init)
        var folders = [root.path]
        for (index, part) in parts.enumerated() {
            let last = index == parts.count - 1
            folders = folders.flatMap { folder -> [String] in
                guard part.contains("*") else { return ["\(folder)/\(part)"] }
                let pattern = try! Regex("^" + part.split(separator: "*", omittingEmptySubsequences: false)
                    .map { NSRegularExpression.escapedPattern(for: String($0)) }.joined(separator: "[^/]*") + "$")
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                return names.filter { $0.wholeMatch(of: pattern) != nil }.map { "\(folder)/\($0)" }
            }.filter { last || FileManager.default.fileExists(atPath: $0) }
        }
        return folders.contains { FileManager.default.fileExists(atPath: $0) }
    }

    @Test func everyPathTheDocsNameExists() throws {
        let mentions = try Self.documents().flatMap(Self.mentions)
        // The pattern finds what the docs name: a pattern that matched nothing would pass.
        #expect(mentions.count > 50, "found only \(mentions.count) paths in the docs")
        let dead = mentions.filter { !Self.exists($0.path) }
        #expect(dead.isEmpty, "dead paths in the docs:\n\(dead.map { "  \($0)" }.joined(separator: "\n"))")
    }

    /// The check itself: a glob, a path at a sentence's end, a path inside another.
    @Test func thePatternReadsPathsAsTheDocsWriteThem() {
        let line = "See Sources/TwfeedStore/Store/AppDatabase+*Schema*.swift, systemd/twfeed@.service. Not /etc/systemd/system/x or https://e/docs/x."
        #expect(line.matches(of: Self.path).map { String($0.1) } == ["Sources/TwfeedStore/Store/AppDatabase+*Schema*.swift", "systemd/twfeed@.service"])
        #expect(Self.exists("Sources/TwfeedStore/Store/AppDatabase+*Schema*.swift"))
        #expect(!Self.exists("Sources/TwfeedStore/Store/Nowhere*.swift"))
        #expect(!Self.exists("Sources/TwfeedKit/Store/StoreQueries.swift"))
    }
}
