/// Whether the account was "summoned" by a post: what makes a reply to it cheaper on the
/// pay-per-use API (`postCreateSummoned`), and what self-serve accounts need before they
/// may reply at all (x-api.md: "Self-serve accounts may reply only to a post whose author
/// mentioned or quoted them").
extension TweetStore {
    /// The post is another user's and mentions the account (an `@` that resolves to it),
    /// quotes one of the account's posts, or replies to one (a reply carries the `@` of
    /// the author it answers).
    func summonsAccount(_ id: UInt64) -> Bool {
        guard let tweet = tweets[id], tweet.authorID != Self.accountID else { return false }
        if tweet.inReplyToUserID == Self.accountID { return true }
        if let quoted = tweet.quotedID, tweets[quoted]?.authorID == Self.accountID { return true }
        return tweet.rendered.entities.contains { entity in
            if case .mention(_, _, _, let userID) = entity { return userID == Self.accountID }
            return false
        }
    }

    /// Whether a reply to `id` is allowed while replies must be summoned: the account may
    /// go on answering its own posts (a thread), which the rule is not about; an assumption,
    /// since X does not say.
    func mayReply(to id: UInt64) -> Bool {
        tweets[id]?.authorID == Self.accountID || summonsAccount(id)
    }
}
