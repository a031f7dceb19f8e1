/// Domains and their TLDs: the part of the URL grammar that needs the TLD table, shared by
/// the scan and by the ASCII-domain pass for URLs written without a scheme.
extension URLDetector {
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

    // MARK: - Domains

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
                if let known = memo[position] {
                    tail = known >= 0 ? known : nil
                    break
                }
                guard let dot = labelEnd(position) else {
                    memo[position] = -1
                    tail = nil
                    break
                }
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
                let end = domainEnd(from: position)
            {
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
}
