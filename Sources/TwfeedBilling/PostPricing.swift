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

    /// Why it costs what it costs, when it is not the plain price: " (it holds a URL)",
    /// " (a reply to a post that mentions you)", else "".
    package var reason: String {
        switch kind {
        case .postCreateWithURL: " (it holds a URL)"
        case .postCreateSummoned: " (a reply to a post that mentions you)"
        default: ""
        }
    }

    /// How many URLs twitter-text finds in `text`.
    package static func urlCount(in text: String) -> Int {
        TweetLengthCounter.urlCount(in: text)
    }
}
