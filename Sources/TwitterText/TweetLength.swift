/// The result of twitter-text's `parseTweet` for one tweet, plus a blank check twitter-text
/// lacks (kept here, beside the measure it qualifies, so callers need one call, not two).
///
/// The field names and meanings follow twitter-text so that its conformance cases apply
/// unchanged. The ranges are inclusive UTF-16 offsets into the text as the caller gave it
/// (before normalization), which is what twitter-text reports and what an editor needs to
/// highlight the part of a tweet that overflows.
public struct TweetLength: Sendable, Equatable {
    /// Length as the API counts it: a URL counts as `transformedURLLength`, a heavy
    /// code point (or, with emoji parsing, an emoji sequence) as 2.
    public let weightedLength: Int
    /// `maxWeightedTweetLength` of the configuration used, kept here so messages such as
    /// twfeed's "status is 291/280" need no second source of truth.
    public let maxWeightedLength: Int
    /// `weightedLength * 1000 / maxWeightedLength`, rounded down as twitter-text does.
    public let permillage: Int
    /// twitter-text's verdict: `0 < weightedLength <= maxWeightedLength` and no character
    /// twitter-text rejects (U+FFFE, U+FEFF, U+FFFF). Says nothing about blank text.
    public let valid: Bool
    /// Always 0; kept so the result reads like twitter-text's.
    public let validRangeStart: Int
    /// Last UTF-16 offset (inclusive) that still fits, with all characters up to it valid.
    public let validRangeEnd: Int
    /// Always 0; kept so the result reads like twitter-text's.
    public let displayRangeStart: Int
    /// Last UTF-16 offset (inclusive) of the text; 0 for empty text.
    public let displayRangeEnd: Int
    /// A rule on top of twitter-text: nothing but whitespace and invisible format
    /// characters. Kept apart from `valid` so `valid` stays exactly twitter-text's answer.
    public let isBlank: Bool

    /// Whether the tweet may be posted: twitter-text accepts it and it is not blank.
    public var isPostable: Bool { valid && !isBlank }

    public init(
        weightedLength: Int,
        maxWeightedLength: Int,
        permillage: Int,
        valid: Bool,
        validRangeStart: Int,
        validRangeEnd: Int,
        displayRangeStart: Int,
        displayRangeEnd: Int,
        isBlank: Bool
    ) {
        self.weightedLength = weightedLength
        self.maxWeightedLength = maxWeightedLength
        self.permillage = permillage
        self.valid = valid
        self.validRangeStart = validRangeStart
        self.validRangeEnd = validRangeEnd
        self.displayRangeStart = displayRangeStart
        self.displayRangeEnd = displayRangeEnd
        self.isBlank = isBlank
    }
}
