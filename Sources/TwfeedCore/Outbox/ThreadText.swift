/// The parts of a thread as `twfeed thread FILE|-` reads them: the text is cut at each
/// line that is exactly `---` (trailing spaces, tabs and a CR aside, so a file saved
/// with Windows line ends or a stray space still splits; leading spaces make it text).
///
/// - Each part is trimmed of the blank lines and spaces around it, so `---` may stand
///   between blank lines; line ends inside a part become `\n` (a CR before one is
///   dropped, never posted).
/// - A file that starts or ends with `---` (a front-matter habit, a last separator) does
///   not make an empty first or last part: blank parts at either end are dropped, and
///   the parts are numbered from the first one kept (as `--photo N:` counts them).
/// - A blank part between two others is refused when the parts are checked
///   (`part 2: status is empty`), as a blank `post` is: it is more likely a slip than a
///   wish for an empty post.
package enum ThreadText {
    package static let separator = "---"

    /// The parts, in order; empty when the text holds nothing but blanks and separators.
    package static func parts(of text: String) -> [String] {
        var parts: [[Substring]] = [[]]
        // "\r\n" is one Character in Swift: split at it as at "\n".
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var bare = line
            while let last = bare.last, last == " " || last == "\t" || last == "\r" { bare.removeLast() }
            if bare == separator {
                parts.append([])
            } else {
                parts[parts.count - 1].append(line)
            }
        }
        var texts = parts.map { $0.joined(separator: "\n").trimmingWhitespace() }
        while texts.first?.isEmpty == true { texts.removeFirst() }
        while texts.last?.isEmpty == true { texts.removeLast() }
        return texts
    }

    /// Checks every part as a post (`PostValidator`); the first refusal names its part:
    /// `part 3: status is 301/280 characters` (65). An empty thread is refused too.
    package static func validate(_ parts: [String]) throws {
        if parts.isEmpty { throw TwfeedError(.invalidData, "thread is empty: no part to post") }
        for (index, part) in parts.enumerated() {
            do {
                _ = try PostValidator.validate(part)
            } catch let error as TwfeedError {
                throw TwfeedError(error.code, "part \(index + 1): \(error.message)")
            }
        }
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
