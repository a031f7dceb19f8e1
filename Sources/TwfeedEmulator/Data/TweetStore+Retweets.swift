import Foundation

/// Retweets of old tweets: what makes a client that only looks above `since_id` miss them.
extension TweetStore {
    /// Another user retweets one of the account's tweets now: `original` if given (it must
    /// be the account's own original), else the oldest own original nobody retweeted yet
    /// (not listed, and with a retweet count of 0 when there is one) that the retweets feed still reaches (else the oldest one already there, retweeted
    /// again). The tweet's retweet count goes up, and it moves to the top of the retweets
    /// feed's repost order (v2 with `.byLastRepost`); by id it stays below newer tweets.
    /// Returns the retweeted tweet's id, or nil when there is no such tweet of mine.
    mutating func retweetOld(_ original: UInt64?, now: Date) -> UInt64? {
        let current = feeds[.retweets] ?? []
        let target: UInt64
        if let original {
            guard let tweet = tweets[original], tweet.authorID == Self.accountID, !tweet.isRetweet, !tweet.deleted else {
                return nil
            }
            target = original
        } else {
            let listed = Set(current)
            let reach = Self.reach(.retweets, .v1_1)
            // A tweet below the reach of v1.1's id-ordered list could never be seen there.
            let floor = current.count >= reach ? current.sorted().suffix(reach).first ?? 0 : 0
            let mine = ownTweetIDs.filter {
                tweets[$0]?.isReply == false && tweets[$0]?.isRetweet == false && tweets[$0]?.deleted == false
            }
            // Nobody retweeted it yet (its count is 0) if there is such a tweet: a client that
            // reads the repost counts must see it change.
            let unlisted = mine.filter { !listed.contains($0) && $0 > floor }
            guard let pick = unlisted.first(where: { tweets[$0]?.retweetCount == 0 }) ?? unlisted.first ?? current.min() else {
                return nil
            }
            target = pick
        }
        let retweeter = rng.pick(Array(otherUserIDs))
        guard createRetweet(by: retweeter, of: target, at: Self.wholeSeconds(max(now, lastDate))) != nil else {
            return nil
        }
        replaceFeed(.retweets, with: current.filter { $0 != target } + [target])
        return target
    }

    /// The account reposts `count` posts by others now (their newest originals first,
    /// round and round): its newest own posts, each a repost. The own-posts timelines
    /// list them; v2 `exclude=retweets` and v1.1 `include_rts=false` remove them after the
    /// page is cut, so a run of them makes an own-originals page short or empty while
    /// older originals lie below. Returns the reposts' ids, oldest first.
    mutating func repostAsAccount(count: Int, now: Date) -> [UInt64] {
        let others = tweets.values.filter { $0.authorID != Self.accountID && !$0.isRetweet && !$0.deleted }
            .map(\.id).sorted(by: >)
        guard !others.isEmpty else { return [] }
        var made: [UInt64] = []
        for index in 0..<max(0, count) {
            let at = Self.wholeSeconds(max(now, lastDate))
            if let repost = createRetweet(by: Self.accountID, of: others[index % others.count], at: at) {
                made.append(repost.id)
            }
        }
        return made
    }
}
