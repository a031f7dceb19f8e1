/// What `twfeed post` checks before a status is queued, so the API never has to
/// refuse it for its length months later.
public enum StatusValidator {
    /// Measures the text under twitter-text's current (v3) configuration and refuses
    /// what the API would refuse: empty, whitespace-only, too long, invalid characters.
    public static func validate(_ text: String) throws -> StatusLength {
        let length = StatusLengthCounter.measure(text)
        if length.isBlank {
            throw TwfeedError(.invalidData, "status is empty")
        }
        if length.weightedLength > length.maxWeightedLength {
            throw TwfeedError(.invalidData, "status is \(length.weightedLength)/\(length.maxWeightedLength) characters")
        }
        if !length.valid {
            throw TwfeedError(.invalidData, "status contains a character the API refuses (U+FFFE, U+FEFF or U+FFFF)")
        }
        return length
    }
}
