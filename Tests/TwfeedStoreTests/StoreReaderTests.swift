import Foundation
import GRDB
import Testing
@testable import TwfeedCore
@testable import TwfeedStore

/// `AppDatabase.openReader`: what `feed`, `status` and `outbox list` open. It must never
/// create, migrate or write the daemon's database.
struct StoreReaderTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-reader-\(UUID())").path

    func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// A database written by this build, its writer closed (so its -wal and -shm are gone).
    func writtenDatabase() async throws -> String {
        let path = "\(folder)/twfeed.sqlite"
        do {
            let writer = try AppDatabase.open(path: path)
            _ = try await writer.enqueue(text: "queued", replyTo: nil, now: Date(timeIntervalSince1970: 1_800_000_000))
        }
        return path
    }

    @Test func aMissingDatabaseIsOneClearErrorAndNothingIsCreated() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/db/twfeed.sqlite"
        #expect(throws: TwfeedError(.unavailable, "\(path): no database yet: run twfeed run")) {
            try StoreReader.open(path: path)
        }
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test func readsWhatTheWriterStored() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try await writtenDatabase()
        let reader = try StoreReader.open(path: path)
        #expect(try await reader.outboxItems().map(\.text) == ["queued"])
        // `StoreReader` has no write method (the compiler keeps `reader.enqueue` out); even
        // SQL handed to its connection cannot write: the file is opened read-only.
        #expect(throws: TwfeedError.self) {
            try reader.connection.read { db in try db.execute(sql: "INSERT INTO outbox (text, state, createdAt, queuedAt) VALUES ('no', 'pending', 0, 0)") }
        }
        #expect(try await reader.outboxItems().count == 1)
    }

    @Test func anOlderSchemaIsNotMigrated() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = "\(folder)/old.sqlite"
        do {
            let queue = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(queue, upTo: "v1: users, tweets, feeds, sync state")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: TwfeedError(.unavailable, "\(path): written by an older twfeed: run twfeed run once to upgrade it")) {
            try StoreReader.open(path: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the reader changed nothing")
        let applied = try await DatabaseQueue(path: path).read { try AppDatabase.migrator.appliedIdentifiers($0) }
        #expect(applied == ["v1: users, tweets, feeds, sync state"])
    }

    @Test func aNewerSchemaIsAConfigurationError() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/twfeed.sqlite"
        do {
            let writer = try AppDatabase.open(path: path)
            try writer.tamper { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')") }
        }
        let error = #expect(throws: TwfeedError.self) { try StoreReader.open(path: path) }
        #expect(error?.code == .configuration)
        #expect(error?.code.exitCode == 78)
        #expect(error?.message.hasPrefix("\(path): written by a newer twfeed") == true)
    }

    /// The fallback for a read-only folder with no -shm: reads the file as it is and
    /// leaves no -wal or -shm behind.
    @Test func theImmutableOpenReadsAndCreatesNoFile() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try await writtenDatabase()
        // The writer's lock file (migrations, the daemon) stays; no -wal or -shm does.
        #expect(files(folder) == ["twfeed.sqlite", "twfeed.sqlite.lock"])
        let reader = try StoreReader.openImmutable(path: path)
        #expect(try await reader.outboxItems().map(\.text) == ["queued"])
        #expect(files(folder) == ["twfeed.sqlite", "twfeed.sqlite.lock"])
        #expect(StoreReader.immutableURI("/a b/c?d#e.sqlite") == "file:/a%20b/c%3Fd%23e.sqlite?immutable=1")
    }

    /// The real case, where permissions apply (not as root, for whom chmod changes nothing).
    @Test(.enabled(if: geteuid() != 0, "root ignores file permissions"))
    func aReadOnlyFolderAndFileAreRead() async throws {
        let path = try await writtenDatabase()
        defer {
            chmod(folder, 0o700)
            try? FileManager.default.removeItem(atPath: folder)
        }
        chmod(path, 0o400)
        chmod(folder, 0o500)
        let reader = try StoreReader.open(path: path)
        #expect(try await reader.outboxItems().map(\.text) == ["queued"])
        #expect(files(folder) == ["twfeed.sqlite"])
    }
}
