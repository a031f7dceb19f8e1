import Foundation

/// Conversations whose ancestors are in no timeline: what a client sees only as a reply's
/// `in_reply_to` id, and must look up by id to show the thread.
extension TweetStore {
    /// Runs `body` with `chainRng` in place of `rng`, so that what it makes leaves `rng`'s
    /// sequence (the rest of the seeded history) as it was.
    mutating func withChainRandom<T>(_ body: (inout TweetStore) -> T) -> T {
        swap(&rng, &chainRng)
        defer { swap(&rng, &chainRng) }
        return body(&self)
    }

    /// `replies` replies, each to the one before, the first to `root`, written in turn by
    /// `authors` (never answering themselves); none joins a timeline. Returns the last
    /// (or `root` when none could be made).
    mutating func thread(below root: UInt64, replies: Int, authors: [UInt64], at clock: TimeInterval) -> UInt64 {
        var tip = root
        for _ in 0..<max(0, replies) {
            guard let parentAuthor = tweets[tip]?.authorID else { break }
            let candidates = authors.filter { $0 != parentAuthor }
            guard !candidates.isEmpty, let reply = createReply(by: rng.pick(candidates), to: tip, at: clock) else { break }
            tip = reply
        }
        return tip
    }

    /// A conversation of `depth` ancestors between accounts the user does not follow (an
    /// original and `depth - 1` replies, none in any timeline), answered by a post that
    /// joins `feed`: in home a followed account's reply; in mentions a reply that also
    /// mentions the account (in home too when its author is followed). Returns that post
    /// and its ancestors, parent first and root last; nil for the retweets feed or a depth
    /// below 1.
    mutating func addReplyChain(to feed: EmulatorFeed, depth: Int, now: Date) -> (id: UInt64, ancestors: [UInt64])? {
        guard feed != .retweets, depth >= 1 else { return nil }
        let clock = Self.wholeSeconds(max(now, lastDate)).timeIntervalSince1970
        let others = Array(otherUserIDs)
        let strangers = others.filter { users[$0]?.followed == false }
        let writers = strangers.count >= 2 ? strangers : others
        let root = createOtherOriginal(by: rng.pick(writers), at: clock)
        let parent = thread(below: root, replies: depth - 1, authors: writers, at: clock)
        var ancestors: [UInt64] = []
        var cursor: UInt64? = parent
        while let id = cursor {
            ancestors.append(id)
            cursor = id == root ? nil : tweets[id]?.inReplyToTweetID
        }
        guard let parentTweet = tweets[parent], let parentAuthor = users[parentTweet.authorID] else { return nil }
        let id: UInt64
        switch feed {
        case .home:
            let followed = others.filter { users[$0]?.followed == true && $0 != parentTweet.authorID }
            guard let reply = createReply(by: rng.pick(followed.isEmpty ? [Self.accountID] : followed), to: parent, at: clock) else {
                return nil
            }
            id = reply
            append(id, to: .home)
        case .mentions:
            let author = rng.pick(others.filter { $0 != parentTweet.authorID })
            let text = "@\(parentAuthor.username) @\(Self.accountUsername) " + rng.pick(TweetCorpus.mentionTexts)
            id =
                createTweet(
                    author: author,
                    text: text,
                    at: Self.date(clock),
                    replyTo: (parent, parentTweet.authorID),
                    decorated: true
                ).id
            append(id, to: .mentions)
            if users[author]?.followed == true { append(id, to: .home) }
        case .retweets:
            return nil
        }
        return (id, ancestors)
    }
}
