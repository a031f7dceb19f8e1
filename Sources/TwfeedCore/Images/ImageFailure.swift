/// Why the last download of a picture (an avatar or a photo) failed, to be tried again:
/// the downloader's reason code (`http_503`, `timeout`, `unexpected_304`, …) and its
/// detail. The store keeps it as one line, `reason: detail`, the spelling rows written
/// before it was a type already have; only that edge sees the string.
package struct ImageFailure: Sendable, Equatable, CustomStringConvertible {
    package var reason: String
    package var detail: String

    package init(reason: String, detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// Reads the stored line back; a line without `: ` is all reason.
    package init(stored line: String) {
        if let colon = line.range(of: ": ") {
            self.init(reason: String(line[..<colon.lowerBound]), detail: String(line[colon.upperBound...]))
        } else {
            self.init(reason: line, detail: "")
        }
    }

    package var description: String { detail.isEmpty ? reason : "\(reason): \(detail)" }
}
