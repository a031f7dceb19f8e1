import TwitterText

/// What a status will cost to post, decided before it is queued so `twfeed post
/// --dry-run` and the compose page can show it, and so the budget can hold back a post
/// it cannot pay for.
///
/// X charges a post with a URL $0.200 and does not define "URL" further; twfeed assumes
/// anything twitter-text would link, bare domains such as `example.com` included, since
/// that is what the API turns into a t.co link. A URL beats a summoned reply: the API
/// documents no discount for a summoned reply that carries a link, so twfeed expects the
/// higher price rather than promise the lower one.
package struct PostPricing: Hashable, Sendable {
    package let kind: BillableKind
    package let price: MicroUSD
    /// Whether twitter-text finds at least one URL in the text.
    package let hasURL: Bool

    /// - Parameters:
    ///   - text: the status as it will be sent.
    ///   - summoned: whether it replies to an author who mentioned or quoted the user; the
    ///     caller knows the thread, this type does not.
    package init(text: String, summoned: Bool, prices: Prices = .published) {
        hasURL = Self.urlCount(in: text) > 0
        kind = hasURL ? .postCreateWithURL : (summoned ? .postCreateSummoned : .postCreate)
        price = prices.price(of: kind)
    }

    /// How many URLs twitter-text finds in `text`.
    ///
    /// TwitterText keeps its URL detector internal and offers only the weighted length, so
    /// the count is read through a configuration in which every character weighs 0 and a
    /// URL weighs 1: the weighted length is then the number of URLs, found by the very scan
    /// (after the same NFC normalization) that makes each one count 23 in a real tweet.
    /// Emoji parsing is off so the walk never steps over the start of a URL.
    package static func urlCount(in text: String) -> Int {
        TweetLengthCounter.measure(text, configuration: urlCounting).weightedLength
    }

    private static let urlCounting = TwitterTextConfiguration(
        version: 0,
        maxWeightedTweetLength: 1,
        scale: 1,
        defaultWeight: 0,
        transformedURLLength: 1,
        emojiParsingEnabled: false,
        ranges: []
    )
}
