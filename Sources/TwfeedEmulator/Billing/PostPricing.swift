import TwitterText

/// Which create price a post pays (x-api.md, "Paying for it"): with a URL the dearest,
/// else a summoned reply the cheapest, else the plain create.
enum PostPricing {
    static func kind(text: String, replyTo: UInt64?, store: TweetStore) -> EmulatorResourceKind {
        if containsURL(text) { return .postCreateWithURL }
        if let target = replyTo, store.summonsAccount(target) { return .postCreateSummoned }
        return .postCreate
    }

    /// Whether twitter-text would link something in `text`, bare domains (`example.com`)
    /// included: X does not define "with URL" further, and this is what its own clients
    /// turn into a link.
    ///
    /// TwitterText exposes its URL detector only through the weighted-length counter, in
    /// which every URL weighs `transformedURLLength` whatever its real length. Counting
    /// the text twice, with that length raised by 1,000 the second time, tells exactly
    /// whether it holds a URL (each one adds 1,000), without reaching into the port.
    static func containsURL(_ text: String) -> Bool {
        TweetLengthCounter.measure(text, configuration: longURLs).weightedLength
            != TweetLengthCounter.measure(text, configuration: .v3).weightedLength
    }

    private static let longURLs: TwitterTextConfiguration = {
        let v3 = TwitterTextConfiguration.v3
        return TwitterTextConfiguration(
            version: v3.version, maxWeightedTweetLength: v3.maxWeightedTweetLength, scale: v3.scale,
            defaultWeight: v3.defaultWeight, transformedURLLength: v3.transformedURLLength + 1_000,
            emojiParsingEnabled: v3.emojiParsingEnabled, ranges: v3.ranges)
    }()
}
