import Foundation

/// What both dialects' delete endpoints share: whose post it is, and a deletion stored.
extension EmulatorState {
    enum DeletionOutcome {
        /// The post is gone from now on; this is how it was.
        case deleted(StoredTweet)
        /// Unknown, or already gone (deleted, or made unavailable).
        case gone
        /// Another user's post.
        case notYours
    }

    /// Deletes one of the account's posts: it leaves every timeline and lookup (as
    /// `Emulator.deleteTweet` makes it), and `posted` and `deletions` say so.
    mutating func delete(post id: UInt64, dialect: EmulatorDialect, now: Date) -> DeletionOutcome {
        guard let tweet = store.tweets[id], !tweet.deleted else { return .gone }
        guard tweet.authorID == TweetStore.accountID else { return .notYours }
        _ = store.makeUnavailable(id, reason: .deleted)
        deletions.append(PostDeletion(id: String(id), dialect: dialect, at: now))
        if let index = posted.lastIndex(where: { $0.id == String(id) }) { posted[index].deletedAt = now }
        return .deleted(tweet)
    }
}
