import Foundation
import GRDB
import GRDBSQLite
import Logging
import Testing
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore

/// The daemon's own idle memory: a heartbeat's beat empties the page cache of the store
/// the board counts (the one the daemon writes), which a backfill filled.
struct HeartbeatMemoryTests {
    @Test func aBeatEmptiesTheCacheTheBackfillLeftInTheWriter() async throws {
        let folder = try ScratchFolder(prefix: "twfeed-heartbeat")
        var config = TwfeedConfig(environment: ["HOME": folder.path])
        config.storage.database = "\(folder.path)/twfeed.sqlite"
        let database = try AppDatabase.open(path: config.storage.database)
        try await StoreFill.posts(3000, into: database)
        let clock = ManualClock(now: Date())
        let board = StatusBoard(config: config, database: database, startedAt: clock.now())
        let heartbeat = Heartbeat(
            path: "\(folder.path)/status.json", board: board, clock: clock, notifier: nil,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let cached = { try database.tamper { db in
            var (current, highest): (Int32, Int32) = (0, 0)
            sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
            return current
        } }
        let filled = try cached()
        #expect(filled > 1_000_000)
        await heartbeat.releaseMemory()
        #expect(try cached() < filled / 10)
        #expect(try await database.memberIDs(.home).count == 3000)
    }
}
