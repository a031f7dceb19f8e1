import Foundation

/// What one prune did: the sum of its batches and its vacuum.
public struct PruneReport: Sendable, Equatable {
    /// Tweets created before this went, unless the rules keep them.
    public var cutoff: Date
    public var deletedTweets = 0
    /// Old tweets kept because a kept tweet refers to them or the outbox sent them.
    public var keptTweets = 0
    public var deletedUsers = 0
    /// Image rows whose author was already gone.
    public var orphanImageRows = 0
    public var batches = 0
    public var vacuumedPages = 0
    /// The whole prune, batches and pauses between them.
    public var seconds = 0.0
    /// The longest time a batch or a vacuum step held the write lock.
    public var longestTransactionSeconds = 0.0

    public init(cutoff: Date) {
        self.cutoff = cutoff
    }

    mutating func add(_ batch: PruneBatch) {
        batches += 1
        deletedTweets += batch.deletedTweets
        keptTweets += batch.keptTweets
        deletedUsers += batch.deletedUsers
        longestTransactionSeconds = max(longestTransactionSeconds, batch.transactionSeconds)
    }
}
