import Foundation
import GRDB
import Testing
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

struct StoreTests {
    func page(_ ids: [Int64], author: Author = Author(id: UserID(1), username: "a", name: "A")) -> TimelinePage {
        TimelinePage(
            tweets: ids.map { Tweet(id: TweetID($0), authorID: author.id, createdAt: Date(timeIntervalSince1970: 1_700_000_000), text: "t\($0)") },
            authors: [author], nextPageToken: nil)
    }

    @Test func migrationsCreateTheSchemaOnAFileDatabaseInWALMode() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-store-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db/twfeed.sqlite").path
        let database = try AppDatabase.open(path: path)
        let mode = try database.inspect { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let tables = try database.inspect { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
        #expect(Set(tables).isSuperset(of: ["account", "feedMembership", "outbox", "syncState", "tweet", "user"]))
        // Private: the database holds the user's timelines.
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o077 } == 0)
        // Opening again runs no migration twice and keeps the data.
        try await database.storePage(page([5]), feed: .home, state: SyncState(feed: .home), now: Date())
        let reopened = try AppDatabase.open(path: path)
        #expect(try await reopened.memberIDs(.home) == [TweetID(5)])
    }

    /// Every table, index, view and trigger, with its SQL.
    static func schema(of database: AppDatabase) throws -> [Row] {
        try database.inspect { try Row.fetchAll($0, sql: "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name") }
    }

    /// `inMemory()` copies a schema migrated once per process: each copy must be the
    /// whole schema a file gets, and a database of its own.
    @Test func inMemoryDatabasesHaveTheWholeSchemaAndShareNothing() async throws {
        let folder = try ScratchFolder(prefix: "twfeed-store")
        let expected = try Self.schema(of: AppDatabase.open(path: "\(folder.path)/twfeed.sqlite"))
        let first = try AppDatabase.inMemory()
        let second = try AppDatabase.inMemory()
        for database in [first, second] {
            #expect(try Self.schema(of: database) == expected)
            #expect(try database.inspect { try AppDatabase.migrator.hasCompletedMigrations($0) })
        }
        try await first.storePage(page([7]), feed: .home, state: SyncState(feed: .home), now: Date())
        #expect(try await first.memberIDs(.home) == [TweetID(7)])
        #expect(try await second.memberIDs(.home).isEmpty)
        #expect(try await AppDatabase.inMemory().memberIDs(.home).isEmpty)
    }

    /// The tests' migrated file (`MigratedDatabase`) must be what a fresh open makes:
    /// the same schema, WAL, incremental auto-vacuum, private, and a database of its own.
    @Test func aMigratedCopyIsTheDatabaseAFreshOpenMakes() async throws {
        let folder = try ScratchFolder(prefix: "twfeed-store")
        let fresh = try AppDatabase.open(path: "\(folder.path)/fresh.sqlite")
        // The file itself carries every migration, before twfeed opens it.
        try MigratedDatabase.write(to: "\(folder.path)/copy1.sqlite")
        let written = try DatabaseQueue(path: "\(folder.path)/copy1.sqlite", configuration: { var c = Configuration(); c.readonly = true; return c }())
        #expect(try await written.read { try AppDatabase.migrator.hasCompletedMigrations($0) })
        try written.close()
        let copies = try (1 ... 2).map { try MigratedDatabase.open(path: "\(folder.path)/copy\($0).sqlite") }
        let modes = "SELECT (SELECT journal_mode FROM pragma_journal_mode), (SELECT auto_vacuum FROM pragma_auto_vacuum)"
        let expected = try fresh.inspect { try Row.fetchOne($0, sql: modes) }
        #expect(expected?[0] == "wal" && expected?[1] == 2)
        for (index, copy) in copies.enumerated() {
            #expect(try Self.schema(of: copy) == Self.schema(of: fresh))
            #expect(try copy.inspect { try Row.fetchOne($0, sql: modes) } == expected)
            #expect(try copy.inspect { try AppDatabase.migrator.hasCompletedMigrations($0) })
            let mode = try FileManager.default.attributesOfItem(atPath: "\(folder.path)/copy\(index + 1).sqlite")[.posixPermissions] as? Int
            #expect(mode.map { $0 & 0o077 } == 0)
        }
        try await copies[0].storePage(page([9]), feed: .home, state: SyncState(feed: .home), now: Date())
        #expect(try await copies[0].memberIDs(.home) == [TweetID(9)])
        #expect(try await copies[1].memberIDs(.home).isEmpty)
    }

    @Test func idsAboveTwoToTheFiftyThirdSurviveExactly() async throws {
        let database = try AppDatabase.inMemory()
        let big: Int64 = 1_850_000_000_000_000_123
        try await database.storePage(page([big, big - 1]), feed: .home, state: SyncState(feed: .home), now: Date())
        #expect(try await database.memberIDs(.home).map(\.rawValue) == [big, big - 1])
        #expect(TweetID("1850000000000000123")?.rawValue == big)
        #expect(TweetID("not a number") == nil)
        #expect(TweetID("-5") == nil)
    }

    @Test func anAuthorUpdateChangesOneRow() async throws {
        let database = try AppDatabase.inMemory()
        try await database.storePage(page([1]), feed: .home, state: SyncState(feed: .home), now: Date())
        try await database.storePage(page([2], author: Author(id: UserID(1), username: "a", name: "Renamed")), feed: .home, state: SyncState(feed: .home), now: Date())
        let users = try database.inspect { try Row.fetchAll($0, sql: "SELECT * FROM user") }
        #expect(users.count == 1)
        #expect(users.first?["name"] == "Renamed")
        #expect(try await database.feedItems(.home, limit: 10).allSatisfy { $0.author?.name == "Renamed" })
    }
}
