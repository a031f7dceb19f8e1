/// Finds the URLs twitter-text's `extractUrlsWithIndices` finds (with URLs without a scheme
/// enabled, as `parseTweet` uses it), because each one counts as `transformedURLLength`
/// whatever its real length.
///
/// twitter-text does this with one large backtracking regex. This is a hand-written
/// equivalent of that regex's first-match behaviour: the same character classes, the same
/// greedy choices and the same quirks (a rejected match still consumes its text; a URL
/// without a scheme is cut down to its ASCII-only domain), but with the TLD list in a
/// dictionary and domain labels memoized, so a long tweet costs linear time instead of
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
}
