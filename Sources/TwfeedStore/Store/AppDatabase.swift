import Foundation
import GRDB
import Logging
import TwfeedCore

/// Owns the SQLite database: its connection (a WAL pool, so `twfeed feed` and
/// `twfeed status` read while the daemon writes) and its migrations, which run on every
/// writer open so an upgrade needs no separate step.
///
/// The store is sealed, like GRDB's demo `AppDatabase`: the connection is private and
/// everything else goes through typed methods, so no other part of twfeed imports GRDB
/// or knows a table or column name, and GRDB's errors become `TwfeedError`s here.
///
/// It is the writer: the daemon's, and the commands' that queue (`post`, `outbox
/// retry/cancel`). Like GRDB's `DatabaseWriter`, which is also a `DatabaseReader`, it has
/// every read of `StoreReading` too; `StoreReader` has those reads and nothing else.
package final class AppDatabase: StoreReading {
    private let dbWriter: any DatabaseWriter
    package let connection: StoreConnection
    /// Opened with `durable: true`: `enqueue` refuses to report a status queued unless
    /// its connection fsyncs the commit.
    let durable: Bool

    /// The same database for reading only: what the daemon hands its web reader, so the
    /// pages share the daemon's pool and still cannot write.
    package var reader: StoreReader { StoreReader(connection) }

    /// Internal for tests that migrate a queue by hand; callers open through the static methods.
    init(_ dbWriter: any DatabaseWriter, path: String, durable: Bool = false) {
        self.dbWriter = dbWriter
        connection = StoreConnection(dbWriter, path: path)
        self.durable = durable
    }

    /// Opens (creating when needed) the database file and migrates it: for the daemon
    /// and the commands that write (`post`, `outbox retry/cancel`). Readers use
    /// `openReader(path:)`.
    ///
    /// - Parameter durable: `synchronous=FULL`, for writers whose caller must know the
    ///   row survives a power loss once they return (`twfeed post`). The daemon uses
    ///   NORMAL, which survives a crash of the process.
    /// - Parameter logger: where migrations report progress (the daemon's logger);
    ///   nil: silent.
    package static func open(path: String, durable: Bool = false, logger: Logger? = nil) throws -> AppDatabase {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw TwfeedError(.io, "\(directory): cannot create the database folder: \(error.localizedDescription)")
            }
        }
        var configuration = GRDB.Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // Before GRDB turns WAL on (which writes the header): a new file gets
            // incremental auto-vacuum, so pruning can shrink it. A no-op on an existing
            // file; `convertToIncrementalVacuum` converts those once.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL") }
            try db.execute(sql: "PRAGMA synchronous = \(durable ? "FULL" : "NORMAL")")
        }
        // The database holds the user's timelines: private. SQLite gives the -wal and
        // -shm files the main file's mode, so creating it 0600 is enough (changing
        // the umask instead would race every other thread creating files).
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }
        return try mapErrors(path: path, "cannot open the database") {
            // Serialized across processes: two openers of a new database would
            // otherwise both try to create its schema.
            try DatabaseLock.withMigrationLock(database: path) {
                let pool = try DatabasePool(path: path, configuration: configuration)
                // A newer twfeed's database: writing to it with an older schema's
                // assumptions could lose what the newer version stores.
                if try pool.read({ try migrator.hasBeenSuperseded($0) }) {
                    throw TwfeedError(
                        .configuration,
                        "\(path): written by a newer twfeed (its schema has migrations this build does not know); upgrade twfeed"
                    )
                }
                let database = AppDatabase(pool, path: path, durable: durable)
                try (logger.map(migrator(logger:)) ?? migrator).migrate(database.dbWriter)
                if durable {
                    // GRDB's pool sets synchronous=NORMAL when it turns WAL on, after
                    // prepareDatabase: set FULL again on the one writer connection, where
                    // it sticks (`enqueue` checks it on every durable write).
                    try database.dbWriter.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
                }
                return database
            }
        }
    }

    /// An empty database in memory, for tests and for `import --dry-run` where no
    /// database exists yet (it must create none).
    package static func inMemory() throws -> AppDatabase {
        try mapErrors(path: "memory", "cannot open the database") {
            let queue = try DatabaseQueue()
            try migratedInMemory.get().backup(to: queue)
            return AppDatabase(queue, path: "memory")
        }
    }

    /// The empty schema in memory, migrated once per process: `inMemory()` copies its
    /// pages (SQLite's backup, well under a millisecond) instead of running every
    /// migration again (about 20 ms of DDL, each statement parsing the schema so far; the
    /// tests open a few hundred). Only ever read.
    private static let migratedInMemory = Result<DatabaseQueue, any Error> {
        let queue = try DatabaseQueue()
        try migrator.migrate(queue)
        return queue
    }

    // MARK: The store's own access

    /// The writes reach the connection here and nowhere else; GRDB's errors become
    /// `TwfeedError`s naming the file. The reads are `StoreReading`'s, through `connection`.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await Self.mapErrors(path: path, "cannot write the database") { try await dbWriter.write(updates) }
    }

    /// Writes outside GRDB's implicit transaction: for statements SQLite refuses inside
    /// one (VACUUM) and for the pruner, which times its own short transactions.
    func writeWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await Self.mapErrors(path: path, "cannot write the database") { try await dbWriter.writeWithoutTransaction(updates) }
    }

    /// Starts observing changes to `tables`, calling `onChange` after each commit that
    /// touched them. Needs the writer (GRDB observes commits), hence here.
    func observe(tables: [String], onChange: @escaping @Sendable () -> Void) -> StoreObservation {
        let observation = DatabaseRegionObservation(tracking: tables.map { Table($0) })
        return StoreObservation(observation.start(in: dbWriter, onError: { _ in }, onChange: { _ in onChange() }))
    }

    // MARK: Tests' door

    /// Raw SQL for tests and the benchmark in this package (integrity checks, row
    /// counts, forcing a state no typed method makes). `package`, so the product's users
    /// cannot reach it; twfeed's own code does not call it.
    package func inspect<T>(_ value: (Database) throws -> T) throws -> T {
        try connection.read(value)
    }

    /// Writes raw SQL, for tests that must put the database in a state the typed
    /// methods never produce (`package` for the same reason as `inspect`).
    package func tamper<T>(_ updates: (Database) throws -> T) throws -> T {
        try Self.mapErrors(path: path, "cannot write the database") { try dbWriter.write(updates) }
    }

    // MARK: Errors

    /// GRDB's errors stop here: the caller gets a `TwfeedError` naming the file.
    /// SQLite's message; a write that failed for want of space often comes back as a
    /// bare "disk I/O error" (the WAL or shared-memory file could not grow), so the
    /// folder's free space is checked and a full disk said as such.
    static func describe(_ error: DatabaseError, path: String) -> String {
        let message = error.message ?? "\(error.resultCode)"
        guard error.resultCode == .SQLITE_IOERR || error.resultCode == .SQLITE_FULL else { return message }
        var stats = statvfs()
        let folder = (path as NSString).deletingLastPathComponent
        guard statvfs(folder.isEmpty ? "." : folder, &stats) == 0, stats.f_bavail == 0 else { return message }
        return "\(message) (the disk is full)"
    }

    static func mapErrors<T>(path: String, _ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw TwfeedError(.io, "\(path): \(what): \(describe(error, path: path))")
        }
    }

    static func mapErrors<T>(path: String, _ what: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError {
            throw TwfeedError(.io, "\(path): \(what): \(describe(error, path: path))")
        }
    }
}

/// A running observation of the store; `cancel()` (or releasing it) stops it. Keeps
/// GRDB's cancellable type inside Store/.
package final class StoreObservation: Sendable {
    private let cancellable: AnyDatabaseCancellable

    init(_ cancellable: AnyDatabaseCancellable) {
        self.cancellable = cancellable
    }

    package func cancel() {
        cancellable.cancel()
    }
}
