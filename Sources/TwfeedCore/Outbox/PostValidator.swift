import TwitterText

/// What `twfeed post` checks before a post is queued, so the API never has to
/// refuse it for its length months later.
package enum PostValidator {
    /// Measures the text under twitter-text's current (v3) configuration and refuses
    /// what the API would refuse: empty, whitespace-only, too long, invalid characters.
    /// The messages say "status", the API's word, and are part of the CLI's contract.
    package static func validate(_ text: String) throws -> TweetLength {
        let length = TweetLengthCounter.measure(text)
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
