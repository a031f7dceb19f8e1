import Foundation
import GRDB
import GRDBSQLite
import Testing
@testable import TwfeedCore
@testable import TwfeedStore

/// The daemon's own idle memory (docs/PERFORMANCE.md, Memory): the pages a backfill's
/// inserts left in the writer's page cache are given back, and the store still reads and
/// writes as before.
struct StoreMemoryTests {
    @Test func theWriterGivesBackThePagesABackfillCached() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-memory-\(UUID().uuidString.prefix(8)).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try AppDatabase.open(path: path)
        let author = Author(id: UserID(1), username: "a", name: "A")
        // 3,000 posts, 30 pages of 100: several MiB of rows and indexes, more than the
        // writer's cache (SQLite's default, 2 MiB) holds.
        for page in 0..<30 {
            let tweets = (1...100).map { index in
                let id = Int64(page * 100 + index)
                return Tweet(id: TweetID(id), authorID: author.id, createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(id)),
                             text: "post \(id) with enough words in it to be a post of ordinary length, about coffee and trains")
            }
            try await database.storePage(TimelinePage(tweets: tweets, authors: [author], nextPageToken: nil), feed: .home,
                                         state: SyncState(feed: .home), now: Date())
        }
        let filled = try writerCacheBytes(database)
        #expect(filled > 1_000_000, "the backfill filled the writer's cache: \(filled) bytes")

        try await database.releaseWriterCache()
        let released = try writerCacheBytes(database)
        #expect(released < filled / 10, "\(filled) → \(released) bytes")

        // Nothing lost: the next write and the reads go on.
        try await database.storePage(TimelinePage(tweets: [Tweet(id: TweetID(5000), authorID: author.id, createdAt: Date(), text: "after")],
                                                  authors: [author], nextPageToken: nil), feed: .home, state: SyncState(feed: .home), now: Date())
        #expect(try await database.memberIDs(.home).count == 3001)
    }

    /// The heap the writer connection's page cache holds, as SQLite counts it.
    func writerCacheBytes(_ database: AppDatabase) throws -> Int32 {
        try database.tamper { db in
            var current: Int32 = 0
            var highest: Int32 = 0
            sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
            return current
        }
    }
}
