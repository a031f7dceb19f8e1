/// Finds the URLs twitter-text's `extractUrlsWithIndices` finds (with URLs without a scheme
/// enabled, as `parseTweet` uses it), because each one counts as `transformedURLLength`
/// whatever its real length.
///
/// twitter-text does this with one large backtracking regex. This is a hand-written
/// equivalent of that regex's first-match behaviour: the same character classes, the same
/// greedy choices and the same quirks (a rejected match still consumes its text; a URL
/// without a scheme is cut down to its ASCII-only domain), but with the TLD list in a
/// dictionary and domain labels memoized, so a long status costs linear time instead of
/// an alternation of 1,574 TLDs tried at every position.
///
/// Everything works on UTF-16 code units because twitter-text's offsets are JavaScript
/// string offsets.
enum URLDetector {
    /// A URL as `parseTweet` consumes it: `length` is the length of twitter-text's `url`
    /// string, which for a scheme-less URL with a path is not its span in the text.
    struct Entity: Equatable {
        let start: Int
        let length: Int
    }

    static func entities(in units: [UInt16]) -> [Entity] {
        // twitter-text's own shortcut: with no dot there is no domain.
        guard units.contains(Unit.dot) else { return [] }
        var scanner = Scanner(units)
        return scanner.entities()
    }

    /// Each (lower-case) TLD's position in twitter-text's alternation; the lowest wins.
    static let tldRanks: [String: Int] = {
        var ranks: [String: Int] = [:]
        for (rank, tld) in (TopLevelDomains.generic + TopLevelDomains.country).enumerated() where ranks[tld] == nil {
            ranks[tld] = rank
        }
        return ranks
    }()

    static let longestTLD: Int = (TopLevelDomains.generic + TopLevelDomains.country).map(\.utf16.count).max() ?? 0

    /// Every code unit that occurs in a TLD, in either case.
    static let tldUnits: Set<UInt16> = {
        var units: Set<UInt16> = []
        for tld in TopLevelDomains.generic + TopLevelDomains.country {
            units.formUnion(tld.utf16)
            units.formUnion(tld.uppercased().utf16)
        }
        return units
    }()

    /// The lower-cased dictionary key for a candidate TLD; ASCII, the common case, is
    /// folded by hand to avoid the general Unicode case mapping.
    private static func tldKey(_ units: ArraySlice<UInt16>, isASCII: Bool) -> String {
        guard isASCII else { return String(decoding: units, as: UTF16.self).lowercased() }
        return String(unsafeUninitializedCapacity: units.count) { buffer in
            for (offset, unit) in units.enumerated() { buffer[offset] = UInt8(Unit.lowercased(unit)) }
            return units.count
        }
    }

    private static let maxURLLength = 4096
    private static let maxTcoSlugLength = 40
    private static let maxDomainLabelLength = 63
    private static let defaultProtocolLength = "https://".utf16.count

    // MARK: - The scan

    private struct Match {
        var before: UInt16?
        var start: Int
        var protocolLength: Int
        var domain: Range<Int>
        var hasPath: Bool
        var end: Int
    }

    private struct Scanner {
        let u: [UInt16]
        let n: Int
        /// End of the run of domain-label characters (domain characters, `-`, `_`) at each offset.
        let runEnd: [Int]
        /// Offset of the next `_` at or after each offset, to tell subdomain labels from
        /// domain-name labels (which may not contain one) in constant time.
        let nextUnderscore: [Int]
        /// Domain end for a domain starting at an offset; `-1` no domain, `-2` not computed.
        var domainMemo: [Int]

        init(_ units: [UInt16]) {
            u = units
            n = units.count
            var runEnd = [Int](repeating: 0, count: n + 1)
            var nextUnderscore = [Int](repeating: n, count: n + 1)
            runEnd[n] = n
            var index = n - 1
            while index >= 0 {
                let unit = units[index]
                runEnd[index] = CharacterClass.isDomainLabelCharacter(unit) ? runEnd[index + 1] : index
                nextUnderscore[index] = unit == Unit.underscore ? index : nextUnderscore[index + 1]
                index -= 1
            }
            self.runEnd = runEnd
            self.nextUnderscore = nextUnderscore
            domainMemo = [Int](repeating: -2, count: n + 1)
        }

        mutating func entities() -> [Entity] {
            var result: [Entity] = []
            var lastIndex = 0
            while let match = nextMatch(from: lastIndex) {
                // As with a global JavaScript regex, the next search resumes after the whole
                // match even when the match is then rejected below.
                lastIndex = match.end
                accept(match, into: &result)
            }
            return result
        }

        /// The leftmost match at or after `from`, trying the regex's alternatives for the
        /// preceding character in its order: a consumed preceding character, then `^`.
        private mutating func nextMatch(from: Int) -> Match? {
            var position = from
            while position < n {
                if CharacterClass.isURLPrecedingCharacter(u[position]),
                   let match = matchURL(at: position + 1, before: u[position]) {
                    return match
                }
                if position == 0, let match = matchURL(at: 0, before: nil) {
                    return match
                }
                position += 1
            }
            return nil
        }

        private mutating func matchURL(at start: Int, before: UInt16?) -> Match? {
            guard start < n else { return nil }
            var schemeLength = 0
            var domainEnd: Int?
            if let length = protocolLength(at: start), let end = domain(from: start + length) {
                schemeLength = length
                domainEnd = end
            }
            if domainEnd == nil {
                // The optional scheme backtracks to "none"; kept for fidelity.
                domainEnd = domain(from: start)
            }
            guard let domainEnd else { return nil }

            let domainStart = start + schemeLength
            var position = domainEnd
            if position + 1 < n, u[position] == Unit.colon, CharacterClass.isDigit(u[position + 1]) {
                position += 2
                while position < n, CharacterClass.isDigit(u[position]) { position += 1 }
            }
            var hasPath = false
            if position < n, u[position] == Unit.slash {
                hasPath = true
                position = pathEnd(from: position + 1)
            }
            if position < n, u[position] == Unit.question, let end = queryEnd(from: position + 1, limit: n) {
                position = end
            }
            return Match(
                before: before, start: start, protocolLength: schemeLength,
                domain: domainStart..<domainEnd, hasPath: hasPath, end: position
            )
        }

        private mutating func accept(_ match: Match, into result: inout [Entity]) {
            let urlLength = match.end - match.start
            guard isValidURL(
                urlLength: urlLength,
                protocolLength: match.protocolLength > 0 ? match.protocolLength : URLDetector.defaultProtocolLength,
                domain: match.domain
            ) else { return }

            if match.protocolLength == 0 {
                if let before = match.before, CharacterClass.isInvalidBeforeSchemelessURL(before) { return }
                // Only the ASCII-only domains inside a scheme-less match count as URLs.
                let asciiDomains = URLDetector.asciiDomains(in: u, range: match.domain, firstOnly: false)
                guard let last = asciiDomains.last else { return }
                for domain in asciiDomains.dropLast() {
                    result.append(Entity(start: domain.lowerBound, length: domain.count))
                }
                // twitter-text swaps the domain for the last ASCII domain inside the URL
                // string but moves only the start offset; the walk uses the string's length.
                let length = match.hasPath ? last.count + (urlLength - match.domain.count) : last.count
                result.append(Entity(start: last.lowerBound, length: length))
            } else {
                var length = urlLength
                if let tco = tcoURL(start: match.start, end: match.end) {
                    // A t.co link ends at its slug: anything after it is counted as text.
                    guard tco.slugLength <= URLDetector.maxTcoSlugLength else { return }
                    length = tco.length
                }
                result.append(Entity(start: match.start, length: length))
            }
        }

        // MARK: Domain

        /// `subdomain* domainName (gTLD | ccTLD | punycode)`. Labels are delimited by dots
        /// (no label character is a dot), so the regex's backtracking reduces to: take the
        /// longest chain of labels, and from its end back, the first label that may be a
        /// domain name and is followed by a TLD. The answer at a label start depends only on
        /// that label and the answer at the next one, which is what makes memoizing safe.
        private mutating func domain(from start: Int) -> Int? {
            var chain: [Int] = []
            var position = start
            var tail: Int? = nil
            while true {
                if position >= n { tail = nil; break }
                let memo = domainMemo[position]
                if memo != -2 { tail = memo >= 0 ? memo : nil; break }
                guard isSubdomainLabel(at: position) else {
                    domainMemo[position] = -1
                    tail = nil
                    break
                }
                chain.append(position)
                position = runEnd[position] + 1
            }
            var next = tail
            for label in chain.reversed() {
                if next == nil, nextUnderscore[label] >= runEnd[label] {
                    next = URLDetector.tldEnd(in: u, at: runEnd[label] + 1, limit: n)
                }
                domainMemo[label] = next ?? -1
            }
            return next
        }

        /// `(?:D(?:[_-]|D)*)?D\.` where D is a domain character.
        private func isSubdomainLabel(at position: Int) -> Bool {
            let end = runEnd[position]
            return end > position && end < n && u[end] == Unit.dot
                && CharacterClass.isDomainCharacter(u[position]) && CharacterClass.isDomainCharacter(u[end - 1])
        }

        private func protocolLength(at start: Int) -> Int? {
            var position = start
            for letter in Unit.http {
                guard position < n, Unit.lowercased(u[position]) == letter else { return nil }
                position += 1
            }
            if position < n, Unit.lowercased(u[position]) == 0x73 { position += 1 }
            for unit in Unit.schemeSeparator {
                guard position < n, u[position] == unit else { return nil }
                position += 1
            }
            return position - start
        }

        // MARK: Path and query

        /// `validUrlPath*`: runs of path characters with balanced parentheses between them,
        /// ending at the last path-ending character or parenthesised group. Parentheses are
        /// not path characters, so the regex's backtracking has exactly this outcome (and
        /// its `@…/` alternative can never be the one that matches).
        private func pathEnd(from start: Int) -> Int {
            var position = start
            var end = start
            while true {
                while position < n, CharacterClass.isPathCharacter(u[position]) {
                    if CharacterClass.isPathEndingCharacter(u[position]) { end = position + 1 }
                    position += 1
                }
                guard let parens = balancedParensEnd(at: position) else { return end }
                end = parens
                position = parens
            }
        }

        /// `\((?:G+|G*\(G+\)G*)\)`, one level of nesting as in twitter-text.
        private func balancedParensEnd(at start: Int) -> Int? {
            guard start < n, u[start] == Unit.openParen else { return nil }
            let first = pathRunEnd(from: start + 1)
            guard first < n else { return nil }
            if u[first] == Unit.closeParen { return first > start + 1 ? first + 1 : nil }
            guard u[first] == Unit.openParen else { return nil }
            let inner = pathRunEnd(from: first + 1)
            guard inner > first + 1, inner < n, u[inner] == Unit.closeParen else { return nil }
            let last = pathRunEnd(from: inner + 1)
            guard last < n, u[last] == Unit.closeParen else { return nil }
            return last + 1
        }

        private func pathRunEnd(from start: Int) -> Int {
            var position = start
            while position < n, CharacterClass.isPathCharacter(u[position]) { position += 1 }
            return position
        }

        /// `Q*QE` after the `?`: the query ends at its last query-ending character.
        private func queryEnd(from start: Int, limit: Int) -> Int? {
            var position = start
            var end: Int?
            while position < limit, CharacterClass.isQueryCharacter(u[position]) {
                if CharacterClass.isQueryEndingCharacter(u[position]) { end = position + 1 }
                position += 1
            }
            return end
        }

        /// `^https?://t\.co/([a-z0-9]+)(?:\?Q*QE)?` against the matched URL.
        private func tcoURL(start: Int, end: Int) -> (length: Int, slugLength: Int)? {
            var position = start + 4
            guard position <= end else { return nil }
            if position < end, Unit.lowercased(u[position]) == 0x73 { position += 1 }
            for unit in Unit.tcoHost {
                guard position < end, Unit.lowercased(u[position]) == unit else { return nil }
                position += 1
            }
            let slugStart = position
            while position < end, CharacterClass.isASCIIAlphanumeric(u[position]) { position += 1 }
            let slugLength = position - slugStart
            guard slugLength > 0 else { return nil }
            if position < end, u[position] == Unit.question, let query = queryEnd(from: position + 1, limit: end) {
                position = query
            }
            return (position - start, slugLength)
        }

        // MARK: Validation

        /// twitter-text's `isValidUrl` with its lightweight IDNA check: every label must
        /// fit a DNS label once punycode-encoded, and the URL must fit 4,096 characters.
        private func isValidURL(urlLength: Int, protocolLength: Int, domain: Range<Int>) -> Bool {
            if domain.count >= 4, u[domain.lowerBound..<domain.lowerBound + 4].elementsEqual(Unit.xnPrefix),
               URLDetector.asciiDomains(in: u, range: domain, firstOnly: true).isEmpty {
                return false
            }
            var labelStart = domain.lowerBound
            for index in domain.lowerBound...domain.upperBound where index == domain.upperBound || u[index] == Unit.dot {
                guard let length = Punycode.asciiLength(ofLabel: u[labelStart..<index]),
                      (1...URLDetector.maxDomainLabelLength).contains(length) else { return false }
                labelStart = index + 1
            }
            // twitter-text adds (encoded length - domain length) here, but its IDNA helper
            // returns the domain unchanged, so the difference is always zero.
            return protocolLength + urlLength <= URLDetector.maxURLLength
        }
    }

    // MARK: - Shared pieces

    /// twitter-text's `validAsciiDomain` applied globally to a matched domain:
    /// `(?:[-a-z0-9À…]+\.)+(?:gTLD|ccTLD|punycode)`, case-insensitive, with the TLD
    /// look-ahead seeing only the domain.
    static func asciiDomains(in u: [UInt16], range: Range<Int>, firstOnly: Bool) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var memo: [Int: Int] = [:]  // label start -> domain end, -1 for none
        let limit = range.upperBound

        func labelEnd(_ position: Int) -> Int? {
            var end = position
            while end < limit, CharacterClass.isASCIIDomainCharacter(u[end]) { end += 1 }
            return end > position && end < limit && u[end] == Unit.dot ? end : nil
        }

        func domainEnd(from start: Int) -> Int? {
            var chain: [(start: Int, dot: Int)] = []
            var position = start
            var tail: Int? = nil
            while true {
                if let known = memo[position] { tail = known >= 0 ? known : nil; break }
                guard let dot = labelEnd(position) else { memo[position] = -1; tail = nil; break }
                chain.append((position, dot))
                position = dot + 1
            }
            var next = tail
            for label in chain.reversed() {
                if next == nil { next = tldEnd(in: u, at: label.dot + 1, limit: limit) }
                memo[label.start] = next ?? -1
            }
            return next
        }

        var cursor = range.lowerBound
        var position = cursor
        while position < limit {
            // A match starting inside a run of label characters would also have started at
            // the run's first character, which was already tried.
            if position == cursor || !CharacterClass.isASCIIDomainCharacter(u[position - 1]),
               let end = domainEnd(from: position) {
                result.append(position..<end)
                if firstOnly { break }
                cursor = end
                position = end
                continue
            }
            position += 1
        }
        return result
    }

    /// `(?:gTLD|ccTLD)(?=[^0-9a-zA-Z@+-]|$)|xn--[-0-9a-z]+`, case-insensitive, taking the
    /// earliest TLD in twitter-text's list order among those the look-ahead accepts.
    static func tldEnd(in u: [UInt16], at start: Int, limit: Int) -> Int? {
        guard start < limit else { return nil }
        var best: (rank: Int, end: Int)?
        let last = min(limit, start + longestTLD)
        var end = start
        var isASCII = true
        // Candidates stop at the first unit no TLD contains, so a dot followed by prose
        // costs a lookup or two rather than one per possible TLD length.
        while end < last, tldUnits.contains(u[end]) {
            isASCII = isASCII && u[end] < 0x80
            end += 1
            guard end == limit || !CharacterClass.blocksTLDEnd(u[end]) else { continue }
            if let rank = tldRanks[tldKey(u[start..<end], isASCII: isASCII)], rank < (best?.rank ?? Int.max) {
                best = (rank, end)
            }
        }
        if let best { return best.end }

        guard start + 4 < limit else { return nil }
        for (offset, unit) in Unit.xnPrefix.enumerated() where Unit.lowercased(u[start + offset]) != unit {
            return nil
        }
        var position = start + 4
        while position < limit, CharacterClass.isPunycodeCharacter(u[position]) { position += 1 }
        return position > start + 4 ? position : nil
    }

    enum Unit {
        static let dot: UInt16 = 0x2E
        static let colon: UInt16 = 0x3A
        static let slash: UInt16 = 0x2F
        static let question: UInt16 = 0x3F
        static let hyphen: UInt16 = 0x2D
        static let underscore: UInt16 = 0x5F
        static let openParen: UInt16 = 0x28
        static let closeParen: UInt16 = 0x29
        static let http: [UInt16] = Array("http".utf16)
        static let schemeSeparator: [UInt16] = Array("://".utf16)
        static let tcoHost: [UInt16] = Array("://t.co/".utf16)
        static let xnPrefix: [UInt16] = Array("xn--".utf16)

        /// ASCII-only: JavaScript's non-Unicode case-insensitive matching never folds a
        /// non-ASCII character onto an ASCII one.
        static func lowercased(_ unit: UInt16) -> UInt16 {
            (0x41...0x5A).contains(unit) ? unit + 0x20 : unit
        }
    }

    /// twitter-text's character classes, code unit by code unit as JavaScript sees them.
    enum CharacterClass {
        static func isDigit(_ c: UInt16) -> Bool { (0x30...0x39).contains(c) }

        static func isASCIIAlphanumeric(_ c: UInt16) -> Bool {
            isDigit(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
        }

        /// All ASCII punctuation, as in the Java and Ruby ports (the JavaScript port's
        /// list happens to miss `"` and `` ` ``).
        static func isASCIIPunctuation(_ c: UInt16) -> Bool {
            (0x21...0x2F).contains(c) || (0x3A...0x40).contains(c) || (0x5B...0x60).contains(c) || (0x7B...0x7E).contains(c)
        }

        static func isSpace(_ c: UInt16) -> Bool {
            switch c {
            case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x180E, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
                return true
            default:
                return false
            }
        }

        static func isInvalid(_ c: UInt16) -> Bool { c == 0xFFFE || c == 0xFEFF || c == 0xFFFF }

        static func isDirectionalMarker(_ c: UInt16) -> Bool {
            switch c {
            case 0x202A...0x202E, 0x061C, 0x200E, 0x200F, 0x2066...0x2069: return true
            default: return false
            }
        }

        /// Anything but punctuation, spaces, invalid characters and directional markers,
        /// so internationalised domains (and surrogate halves) qualify.
        static func isDomainCharacter(_ c: UInt16) -> Bool {
            !isASCIIPunctuation(c) && !isSpace(c) && !isInvalid(c) && !isDirectionalMarker(c)
        }

        static func isDomainLabelCharacter(_ c: UInt16) -> Bool {
            c == Unit.hyphen || c == Unit.underscore || isDomainCharacter(c)
        }

        /// `[^A-Za-z0-9@＠$#＃\uFFFE\uFEFF\uFFFF]` (directional markers are allowed too,
        /// which this class already covers).
        static func isURLPrecedingCharacter(_ c: UInt16) -> Bool {
            !isASCIIAlphanumeric(c) && c != 0x40 && c != 0xFF20 && c != 0x24 && c != 0x23 && c != 0xFF03 && !isInvalid(c)
        }

        /// `[-_./]`: "foo.example.com" must not yield "example.com" on its own.
        static func isInvalidBeforeSchemelessURL(_ c: UInt16) -> Bool {
            c == Unit.hyphen || c == Unit.underscore || c == Unit.dot || c == Unit.slash
        }

        /// The TLD look-ahead `(?=[^0-9a-zA-Z@+-]|$)` fails on these.
        static func blocksTLDEnd(_ c: UInt16) -> Bool {
            isASCIIAlphanumeric(c) || c == 0x40 || c == 0x2B || c == Unit.hyphen
        }

        static func isPunycodeCharacter(_ c: UInt16) -> Bool { isASCIIAlphanumeric(c) || c == Unit.hyphen }

        static func isLatinAccent(_ c: UInt16) -> Bool {
            switch c {
            case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF, 0x100...0x24F, 0x253, 0x254, 0x256, 0x257, 0x259, 0x25B,
                 0x263, 0x268, 0x26F, 0x272, 0x289, 0x28B, 0x2BB, 0x300...0x36F, 0x1E00...0x1EFF:
                return true
            default:
                return false
            }
        }

        static func isCyrillic(_ c: UInt16) -> Bool { (0x400...0x4FF).contains(c) }

        /// `[-a-z0-9À…]` of `validAsciiDomain`.
        static func isASCIIDomainCharacter(_ c: UInt16) -> Bool {
            isASCIIAlphanumeric(c) || c == Unit.hyphen || isLatinAccent(c)
        }

        /// `validGeneralUrlPathChars`.
        static func isPathCharacter(_ c: UInt16) -> Bool {
            switch c {
            case 0x21, 0x2A, 0x27, 0x3B, 0x3A, 0x3D, 0x2B, 0x2C, 0x2E, 0x24, 0x2F, 0x25, 0x23, 0x5B, 0x5D, 0x2D,
                 0x2013, 0x5F, 0x7E, 0x40, 0x7C, 0x26:
                return true
            default:
                return isASCIIAlphanumeric(c) || isCyrillic(c) || isLatinAccent(c)
            }
        }

        /// `validUrlPathEndingChars` without its parenthesised alternative: so that
        /// "see example.com/foo." does not take the full stop.
        static func isPathEndingCharacter(_ c: UInt16) -> Bool {
            switch c {
            case 0x2B, 0x2D, 0x3D, 0x5F, 0x23, 0x2F: return true
            default: return isASCIIAlphanumeric(c) || isCyrillic(c) || isLatinAccent(c)
            }
        }

        /// `validUrlQueryChars`.
        static func isQueryCharacter(_ c: UInt16) -> Bool {
            switch c {
            case 0x21, 0x3F, 0x2A, 0x27, 0x40, 0x28, 0x29, 0x3B, 0x3A, 0x26, 0x3D, 0x2B, 0x24, 0x2F, 0x25, 0x23,
                 0x5B, 0x5D, 0x2D, 0x5F, 0x2E, 0x2C, 0x7E, 0x7C:
                return true
            default:
                return isASCIIAlphanumeric(c)
            }
        }

        /// `validUrlQueryEndingChars`.
        static func isQueryEndingCharacter(_ c: UInt16) -> Bool {
            switch c {
            case 0x2D, 0x5F, 0x26, 0x3D, 0x23, 0x2F: return true
            default: return isASCIIAlphanumeric(c)
            }
        }
    }
}
