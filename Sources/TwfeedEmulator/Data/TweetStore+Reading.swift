import Foundation

/// What clients read: how far each feed reaches in each dialect, what a perfect client
/// collects, and the public view of a tweet.
extension TweetStore {
    /// How far back a feed reaches in a dialect (the real API's documented limits).
    static func reach(_ feed: EmulatorFeed, _ dialect: EmulatorDialect) -> Int {
        switch (feed, dialect) {
        case (.home, .v2): 3_200
        case (_, .v2): 800
        case (_, .v1_1): 800
        }
    }

    /// The feed's slots a client of `dialect` can page through, newest first. Deleted
    /// tweets keep their slot: they count when a page is cut, then are dropped.
    ///
    /// Retweets of me are kept in the order they were last retweeted (`retweetOld` moves a
    /// tweet to the top). v1.1 `retweets_of_me` serves them by tweet id, as its
    /// `since_id`/`max_id` paging needs: an old tweet retweeted today sits below `since_id`
    /// there. v2 `reposts_of_me` does not document its order: it serves `repostsOrder`,
    /// by post id unless set to the most recently reposted first.
    func reachableSlots(_ feed: EmulatorFeed, _ dialect: EmulatorDialect) -> [UInt64] {
        let ids = feeds[feed] ?? []
        if feed == .retweets, dialect == .v1_1 || repostsOrder == .byPostID {
            return Array(ids.sorted().suffix(Self.reach(feed, dialect)).reversed())
        }
        return Array(ids.suffix(Self.reach(feed, dialect)).reversed())
    }

    /// The account's own tweets, newest first, as far as the own-posts timelines reach
    /// (the latest 3,200 in both dialects, as documented).
    func reachableOwnTweets() -> [UInt64] {
        Array(ownTweetIDs.suffix(3_200).reversed())
    }

    /// What a perfect client collects from the feed, newest first.
    func groundTruth(_ feed: EmulatorFeed, _ dialect: EmulatorDialect) -> [UInt64] {
        reachableSlots(feed, dialect).filter { tweets[$0]?.deleted == false }
    }

    /// Every visible tweet of the feed, newest first, reachable or not.
    func allVisible(_ feed: EmulatorFeed) -> [UInt64] {
        (feeds[feed] ?? []).reversed().filter { tweets[$0]?.deleted == false }
    }

    /// The public view of a stored tweet.
    func publicTweet(_ id: UInt64) -> PublicTweet? {
        guard let tweet = tweets[id], let author = users[tweet.authorID] else { return nil }
        return PublicTweet(
            id: String(tweet.id),
            text: tweet.text,
            authorID: String(author.id),
            authorUsername: author.username,
            createdAt: tweet.createdAt,
            inReplyToID: tweet.inReplyToTweetID.map { String($0) },
            retweetOfID: tweet.retweetedID.map { String($0) },
            quotedID: tweet.quotedID.map { String($0) },
            retweetCount: tweet.retweetCount,
            longText: tweet.noteRaw,
            media: tweet.media.map { item in
                PublicMedia(
                    key: item.key,
                    type: item.kind.rawValue,
                    path: item.path,
                    width: item.width,
                    height: item.height,
                    altText: item.altText
                )
            },
            unavailable: tweet.deleted ? (tweet.unavailability ?? .deleted) : nil
        )
    }
}
