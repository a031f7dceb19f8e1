import Foundation
import GRDB
import Logging
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// A database, a manual clock, a log, and tweets dated in days before the clock's now.
struct RetentionFixture {
    let folder: String
    let database: AppDatabase
    let clock = ManualClock()
    let sink = MemorySink()
    let logger: Logger

    /// On disk (a WAL pool, as the daemon opens it) or in memory.
    init(onDisk: Bool = false) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-prune-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        database = onDisk ? try AppDatabase.open(path: "\(folder)/twfeed.sqlite") : try AppDatabase.inMemory()
        logger = Logger(label: "test") { [sink] _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
    }

    var path: String { "\(folder)/twfeed.sqlite" }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// Fixed-size batches, so a test can count them whatever the machine's speed.
    func pruner(keepDays: Int = 30, batchSize: Int = Pruner.defaultBatchSize) -> Pruner {
        Pruner(database: database, clock: clock, keepDays: keepDays, batchSize: batchSize, adaptive: false, logger: logger)
    }

    func tweet(_ id: Int64, daysAgo: Double, author: Int64 = 1, replyTo: Int64? = nil, retweetOf: Int64? = nil,
               quoted: Int64? = nil, text: String? = nil) -> Tweet {
        Tweet(id: TweetID(id), authorID: UserID(author), createdAt: clock.now().addingTimeInterval(-daysAgo * 86_400),
              text: text ?? "tweet \(id)", inReplyToID: replyTo.map(TweetID.init), retweetOfID: retweetOf.map(TweetID.init),
              quotedID: quoted.map(TweetID.init))
    }

    /// Stores `tweets` in `feed` and `references` (tweets only referred to) as a page does.
    func store(_ tweets: [Tweet], references: [Tweet] = [], feed: Feed = .home) async throws {
        let authors = Set((tweets + references).map(\.authorID.rawValue)).sorted().map {
            Author(id: UserID($0), username: "user\($0)", name: "User \($0)")
        }
        let page = TimelinePage(tweets: tweets, referencedTweets: references, authors: authors, nextPageToken: nil)
        try await database.storePage(page, feed: feed, state: SyncState(feed: feed), now: clock.now())
    }

    func tweetIDs() throws -> Set<Int64> {
        Set(try database.inspect { try Int64.fetchAll($0, sql: "SELECT id FROM tweet") })
    }

    func userIDs() throws -> Set<Int64> {
        Set(try database.inspect { try Int64.fetchAll($0, sql: "SELECT id FROM user") })
    }

    func memberships() throws -> [String] {
        try database.inspect { try String.fetchAll($0, sql: "SELECT feed || ':' || tweetId FROM feedMembership ORDER BY 1") }
    }
}
