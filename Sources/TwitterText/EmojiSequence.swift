/// Finds emoji sequences for twitter-text's v3 weighting, where a whole sequence (a family
/// joined by ZWJ, a skin-toned hand, a flag, a keycap) costs one heavy character instead of
/// the sum of its code points.
///
/// twitter-text matches twemoji's generated regex of recommended sequences. This follows
/// the UTS #51 grammar with the Unicode properties the Swift runtime carries instead, so
/// newer emoji are covered without a table to keep up to date; for the sequences twemoji
/// knows, the two agree.
enum EmojiSequence {
    /// Sorted, non-overlapping UTF-16 ranges of the sequences in `units`.
    static func ranges(in units: [UInt16]) -> [Range<Int>] {
        // Every emoji, keycaps included, has a non-ASCII unit; most tweets are ASCII.
        guard units.contains(where: { $0 >= 0x80 }) else { return [] }
        var result: [Range<Int>] = []
        var index = 0
        while index < units.count {
            if let end = sequenceEnd(in: units, from: index) {
                result.append(index..<end)
                index = end
            } else {
                index += scalar(in: units, at: index)?.length ?? 1
            }
        }
        return result
    }

    /// `element (ZWJ element)*`. A lone element counts only when it is shown as an emoji
    /// by default or asks for it, so "☺" stays an ordinary character, as in twemoji.
    private static func sequenceEnd(in units: [UInt16], from start: Int) -> Int? {
        guard let first = element(in: units, at: start) else { return nil }
        var end = first.end
        var joined = false
        while end + 1 < units.count, units[end] == zeroWidthJoiner,
            let next = element(in: units, at: end + 1)
        {
            end = next.end
            joined = true
        }
        return first.isEmojiPresentation || joined ? end : nil
    }

    private static let zeroWidthJoiner: UInt16 = 0x200D
    private static let textPresentationSelector: UInt32 = 0xFE0E
    private static let emojiPresentationSelector: UInt32 = 0xFE0F
    private static let combiningKeycap: UInt32 = 0x20E3

    /// One emoji: a flag (pair of regional indicators), a keycap, or an emoji character with
    /// an optional presentation selector or skin-tone modifier and an optional tag sequence
    /// (the subdivision flags).
    private static func element(in units: [UInt16], at start: Int) -> (end: Int, isEmojiPresentation: Bool)? {
        guard let (value, length) = scalar(in: units, at: start) else { return nil }
        var end = start + length
        let next = scalar(in: units, at: end)

        if isRegionalIndicator(value) {
            if let next, isRegionalIndicator(next.value) { end += next.length }
            return (end, true)
        }
        if isKeycapBase(value) {
            // Digits, "#" and "*" have the Emoji property, but only a keycap makes them one.
            if next?.value == emojiPresentationSelector { end += 1 }
            guard scalar(in: units, at: end)?.value == combiningKeycap else { return nil }
            return (end + 1, true)
        }
        guard let unicodeScalar = Unicode.Scalar(value), unicodeScalar.properties.isEmoji else { return nil }
        var isEmojiPresentation = unicodeScalar.properties.isEmojiPresentation
        if next?.value == textPresentationSelector {
            return nil
        } else if next?.value == emojiPresentationSelector {
            end += 1
            isEmojiPresentation = true
        } else if unicodeScalar.properties.isEmojiModifierBase, let next,
            Unicode.Scalar(next.value)?.properties.isEmojiModifier == true
        {
            end += next.length
            isEmojiPresentation = true
        } else if value < 0x1100 && !isEmojiPresentation {
            // "©" and "®" are light characters; they become emoji only with U+FE0F.
            return nil
        }
        if let tagsEnd = tagSequenceEnd(in: units, from: end) {
            end = tagsEnd
            isEmojiPresentation = true
        }
        return (end, isEmojiPresentation)
    }

    /// Tag characters U+E0020–U+E007E closed by U+E007F cancel tag, or `nil`.
    private static func tagSequenceEnd(in units: [UInt16], from start: Int) -> Int? {
        var index = start
        while let (value, length) = scalar(in: units, at: index), (0xE0020...0xE007E).contains(value) {
            index += length
        }
        guard index > start, let (value, length) = scalar(in: units, at: index), value == 0xE007F else { return nil }
        return index + length
    }

    private static func isRegionalIndicator(_ value: UInt32) -> Bool { (0x1F1E6...0x1F1FF).contains(value) }

    private static func isKeycapBase(_ value: UInt32) -> Bool {
        (0x30...0x39).contains(value) || value == 0x23 || value == 0x2A
    }

    /// The code point at `index` and its UTF-16 length; a lone surrogate is returned as is.
    private static func scalar(in units: [UInt16], at index: Int) -> (value: UInt32, length: Int)? {
        guard index < units.count else { return nil }
        let unit = units[index]
        if UTF16.isLeadSurrogate(unit), index + 1 < units.count, UTF16.isTrailSurrogate(units[index + 1]) {
            return (0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(units[index + 1] - 0xDC00), 2)
        }
        return (UInt32(unit), 1)
    }
}
