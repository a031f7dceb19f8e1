import Foundation
import GRDB
import GRDBSQLite
import Testing
import TwfeedTesting
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
        try await StoreFill.posts(3000, into: database)
        let filled = try Self.writerCacheBytes(database)
        #expect(filled > 1_000_000, "the backfill filled the writer's cache: \(filled) bytes")

        try await database.releaseWriterCache()
        let released = try Self.writerCacheBytes(database)
        #expect(released < filled / 10, "\(filled) → \(released) bytes")

        // Nothing lost: the next write and the reads go on.
        let author = Author(id: UserID(1), username: "a", name: "A")
        try await database.storePage(TimelinePage(tweets: [Tweet(id: TweetID(5000), authorID: author.id, createdAt: Date(), text: "after")],
                                                  authors: [author], nextPageToken: nil), feed: .home, state: SyncState(feed: .home), now: Date())
        #expect(try await database.memberIDs(.home).count == 3001)
    }

    /// The heap the writer connection's page cache holds, as SQLite counts it.
    static func writerCacheBytes(_ database: AppDatabase) throws -> Int32 {
        try database.tamper { db in
            var current: Int32 = 0
            var highest: Int32 = 0
            sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
            return current
        }
    }
}
