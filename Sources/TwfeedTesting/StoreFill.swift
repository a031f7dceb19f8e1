import Foundation
import TwfeedCore
import TwfeedStore

/// Posts stored as a backfill stores them, for the tests of what the writer keeps in
/// memory afterwards (`AppDatabase.releaseWriterCache`).
package enum StoreFill {
    /// `count` home posts by one author, in pages of 100; 3,000 make several MiB of rows
    /// and indexes, more than the writer's page cache (SQLite's default, 2 MiB) holds.
    package static func posts(_ count: Int, into database: AppDatabase) async throws {
        let author = Author(id: UserID(1), username: "a", name: "A")
        for first in stride(from: 1, through: count, by: 100) {
            let tweets = (first..<min(first + 100, count + 1)).map { index in
                Tweet(
                    id: TweetID(Int64(index)),
                    authorID: author.id,
                    createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)),
                    text: "post \(index) with enough words in it to be a post of ordinary length, about coffee and trains"
                )
            }
            try await database.storePage(
                TimelinePage(tweets: tweets, authors: [author], nextPageToken: nil),
                feed: .home,
                state: SyncState(feed: .home),
                now: Date()
            )
        }
    }
}
