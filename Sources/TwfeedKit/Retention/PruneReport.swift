import Foundation
import TwfeedStore

/// What one prune did: the sum of its batches and its vacuum.
package struct PruneReport: Sendable, Equatable {
    /// Tweets created before this went, unless the rules keep them.
    package var cutoff: Date
    package var deletedTweets = 0
    /// Old tweets kept because a kept tweet refers to them or the outbox sent them.
    package var keptTweets = 0
    package var deletedUsers = 0
    /// Image rows whose author was already gone.
    package var orphanImageRows = 0
    package var batches = 0
    package var vacuumedPages = 0
    /// The whole prune, batches and pauses between them.
    package var seconds = 0.0
    /// The longest time a batch or a vacuum step held the write lock.
    package var longestTransactionSeconds = 0.0

    package init(cutoff: Date) {
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
