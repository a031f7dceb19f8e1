import Foundation
@testable import TwfeedCore
@testable import TwfeedStore

/// A database filled through the store's own write paths (pages, the outbox, image
/// outcomes), the way the daemon fills it: for the query-plan, counter and view tests.
enum PopulatedStore {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func author(_ id: Int64) -> Author {
        Author(id: UserID(id), username: "user\(id)", name: "User \(id)", profileImageURL: "https://img.example/\(id)_normal.png")
    }

    /// The n-th tweet (from 0), by one of 50 authors, a minute after the previous.
    static func tweet(_ n: Int) -> Tweet {
        let id = Int64(1_000_001 + n)
        let authorID = Int64(n % 50 + 1)
        return Tweet(id: TweetID(id), authorID: UserID(authorID), createdAt: start.addingTimeInterval(Double(n) * 60),
                     text: "tweet number \(n)")
    }

    /// Every tweet is in home, every third id in mentions, every seventh in retweets.
    static func carries(_ feed: Feed, _ id: Int64) -> Bool {
        switch feed {
        case .home: true
        case .mentions: id % 3 == 0
        case .retweets: id % 7 == 0
        case .posts, .likes: false
        }
    }

    /// `tweets` tweets by 50 authors, a minute apart, in pages of 100: every tweet in
    /// home, every third in mentions, every seventh in retweets (so some are in two or
    /// three feeds). Ids start at 1_000_001. Then outbox rows in every state and an
    /// image row per author. In memory, or in the file at `path`.
    static func make(tweets: Int = 3_000, path: String? = nil) async throws -> AppDatabase {
        let database = try path.map { try AppDatabase.open(path: $0) } ?? AppDatabase.inMemory()
        for first in stride(from: 0, to: tweets, by: 100) {
            let batch: [Tweet] = (first..<min(first + 100, tweets)).map(tweet)
            let authors: [Author] = Set(batch.map { $0.authorID.rawValue }).sorted().map(author)
            for feed in Feed.polled {
                let tweets = batch.filter { carries(feed, $0.id.rawValue) }
                try await database.storePage(TimelinePage(tweets: tweets, authors: authors, nextPageToken: nil),
                                       feed: feed, state: SyncState(feed: feed), now: start)
            }
        }
        for n in 0..<30 {
            let item = try await database.enqueue(text: "status \(n)", replyTo: nil, now: start.addingTimeInterval(Double(n)))
            let state: OutboxState = [.pending, .sending, .sent, .failed, .expired, .cancelled][n % 6]
            if state != .pending { try await database.transitionOutbox(item.id, from: [.pending], to: state) }
        }
        for id in 1...50 {
            let subject = AppDatabase.ImageSubject(
                authorID: UserID(Int64(id)), sourceURL: author(Int64(id)).profileImageURL!, size: "normal",
                url: author(Int64(id)).profileImageURL!, usedAt: start)
            _ = try await database.recordImageFetched(subject, file: "ab/cd/\(id).png", bytes: 1000, etag: nil, lastModified: nil, now: start)
        }
        return database
    }
}
