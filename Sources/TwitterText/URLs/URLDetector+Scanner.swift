/// The scan: twitter-text's URL regex walked by hand, left to right, one match at a time.
extension URLDetector {
    // What twitter-text's isValidUrl and t.co handling allow; only the scan uses them.
    fileprivate static let maxURLLength = 4096
    fileprivate static let maxTcoSlugLength = 40
    fileprivate static let maxDomainLabelLength = 63
    fileprivate static let defaultProtocolLength = "https://".utf16.count

    fileprivate struct Match {
        var before: UInt16?
        var start: Int
        var protocolLength: Int
        var domain: Range<Int>
        var hasPath: Bool
        var end: Int
    }

    struct Scanner {
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
                    let match = matchURL(at: position + 1, before: u[position])
                {
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
                before: before,
                start: start,
                protocolLength: schemeLength,
                domain: domainStart..<domainEnd,
                hasPath: hasPath,
                end: position
            )
        }

        private mutating func accept(_ match: Match, into result: inout [Entity]) {
            let urlLength = match.end - match.start
            guard
                isValidURL(
                    urlLength: urlLength,
                    protocolLength: match.protocolLength > 0 ? match.protocolLength : URLDetector.defaultProtocolLength,
                    domain: match.domain
                )
            else { return }

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
                if position >= n {
                    tail = nil
                    break
                }
                let memo = domainMemo[position]
                if memo != -2 {
                    tail = memo >= 0 ? memo : nil
                    break
                }
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
                URLDetector.asciiDomains(in: u, range: domain, firstOnly: true).isEmpty
            {
                return false
            }
            var labelStart = domain.lowerBound
            for index in domain.lowerBound...domain.upperBound where index == domain.upperBound || u[index] == Unit.dot {
                guard let length = Punycode.asciiLength(ofLabel: u[labelStart..<index]),
                    (1...URLDetector.maxDomainLabelLength).contains(length)
                else { return false }
                labelStart = index + 1
            }
            // twitter-text adds (encoded length - domain length) here, but its IDNA helper
            // returns the domain unchanged, so the difference is always zero.
            return protocolLength + urlLength <= URLDetector.maxURLLength
        }
    }
}
