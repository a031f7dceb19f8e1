import Foundation

/// A committed expected output in `Tests/Golden/`, which a test compares byte for byte
/// with what a writer gives: what a user sees (a tweet's markup, a page, `feed --json`)
/// cannot change without a diff in review.
///
/// After a change meant to alter an output, rewrite the files and read their diff:
///
///     TWFEED_UPDATE_GOLDEN=1 swift test --skip-build --filter 'Golden'
///
/// The folder sits at the repository's top, not beside a test, so a test can move
/// between targets without its files.
package struct GoldenFile: Sendable {
    package let name: String
    package let url: URL

    /// `Tests/Golden/NAME`, found from the calling test file's path.
    package init(_ name: String, from testFile: String = #filePath) {
        self.name = name
        url = Repository.root(from: testFile).appendingPathComponent("Tests/Golden/\(name)")
    }

    /// Whether the environment asks for the golden files to be rewritten.
    package static var updating: Bool { ProcessInfo.processInfo.environment["TWFEED_UPDATE_GOLDEN"] == "1" }

    /// Nil when `actual` is the file's bytes (or the file was rewritten to them, under
    /// `TWFEED_UPDATE_GOLDEN=1`); else what differs: the first line that does, and how
    /// to rewrite the file.
    package func mismatch(_ actual: String) -> String? {
        if Self.updating {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
                return nil
            } catch {
                return "Tests/Golden/\(name) could not be written: \(error)"
            }
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return "Tests/Golden/\(name) does not exist: run the test with TWFEED_UPDATE_GOLDEN=1 to write it"
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != actual else { return nil }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let line =
            zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expectedLines.count, actualLines.count)
        func at(_ lines: [Substring]) -> String { line < lines.count ? String(lines[line]) : "(no line)" }
        return """
            Tests/Golden/\(name) differs at line \(line + 1):
              expected: \(at(expectedLines))
              actual:   \(at(actualLines))
            If the change is meant, rewrite it with TWFEED_UPDATE_GOLDEN=1 and review the diff.
            """
    }
}
