import Foundation
import TwfeedCore
import TwfeedKit
import TwfeedStore

/// Pages of made-up posts, stored and charged as a poll stores them: what the ledger's
/// tests (the daemon's side) and the usage report's (the reader's side) read back. A
/// suite conforms to use `page`, `store` and the fixed noon as its own.
package protocol LedgerFixture {}

extension LedgerFixture {
    /// 2026-11-18 11:06:40 UTC, mid-cycle and mid-day.
    package static var noon: Date { Date(timeIntervalSince1970: 1_795_000_000) }
    package static var author: Author { Author(id: UserID(7), username: "someone", name: "Some One") }
    package static var other: Author { Author(id: UserID(8), username: "other", name: "Other") }

    /// Posts by `author` with these ids, and the posts they reference.
    package func page(_ ids: [Int64], referenced: [Int64] = [], authors: [Author] = [Self.author]) -> TimelinePage {
        func tweet(_ id: Int64) -> Tweet {
            Tweet(id: TweetID(id), authorID: UserID(7), createdAt: Date(timeIntervalSince1970: 1_700_000_000), text: "t\(id)")
        }
        return TimelinePage(tweets: ids.map(tweet), referencedTweets: referenced.map(tweet), authors: authors, nextPageToken: nil)
    }

    /// Stores the page as `feed`'s poll would, with the bill `terms` make of it.
    package func store(
        _ database: AppDatabase,
        _ page: TimelinePage,
        _ feed: Feed = .home,
        now: Date = Self.noon,
        terms: BillingTerms = BillingTerms()
    ) async throws {
        try await database.storePage(
            page,
            feed: feed,
            state: SyncState(feed: feed),
            now: now,
            bill: terms.bill(page, feed: feed),
            prices: terms.prices
        )
    }
}
