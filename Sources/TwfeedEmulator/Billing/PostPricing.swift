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
    static func containsURL(_ text: String) -> Bool {
        TweetLengthCounter.urlCount(in: text) > 0
    }
}
