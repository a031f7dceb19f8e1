import Foundation
import GRDB
import TwfeedCore

/// The store for reading only: `twfeed feed`, `search`, `status`, `outbox list`,
/// `twfeed serve` and the web reader's pages. It has `StoreReading`'s reads and no
/// write, so the compiler, not a convention, keeps a page from changing the database.
package final class StoreReader: StoreReading {
    package let connection: StoreConnection

    private init(_ dbReader: any GRDB.DatabaseReader, path: String) {
        connection = StoreConnection(dbReader, path: path)
    }

    /// A reader on a writer's connection (`AppDatabase.reader`).
    init(_ connection: StoreConnection) {
        self.connection = connection
    }

    /// Opens the database for reading only, for `twfeed feed`, `twfeed status` and
    /// `twfeed outbox list`: it never creates the file or its folder and never migrates
    /// (a reader must not change the daemon's database, and may not be allowed to).
    ///
    /// A WAL database needs its -shm file to be read. When the folder is read-only and
    /// the daemon is not running (so no -wal/-shm exist and none can be made), SQLite
    /// refuses; the file then opens `immutable=1`, which is right precisely because
    /// nobody can be writing to it.
    ///
    /// - Throws: `.unavailable` when there is no database yet; `.configuration` when it
    ///   was written by a newer twfeed (migrations this build does not know);
    ///   `.unavailable` when it needs a migration only `twfeed run` may apply.
    package static func open(path: String) throws -> StoreReader {
        guard FileManager.default.fileExists(atPath: path) else {
            throw TwfeedError(.unavailable, "\(path): no database yet: run twfeed run")
        }
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        do {
            let database = StoreReader(try DatabaseQueue(path: path, configuration: configuration), path: path)
            try database.checkSchema()
            return database
        } catch let error as DatabaseError where Self.needsImmutable(error) {
            // A read-only folder with no -shm: nobody can be writing; read it as it is.
        } catch let error as DatabaseError {
            throw TwfeedError(.io, "\(path): cannot open the database: \(error.message ?? "\(error.resultCode)")")
        }
        return try openImmutable(path: path)
    }

    /// The fallback of `open`: SQLite reads the file as it is, with no locks and no
    /// -shm/-wal. Internal so tests (which run as root, for whom a read-only folder is
    /// not read-only) can check it without a permission failure to trigger it.
    static func openImmutable(path: String) throws -> StoreReader {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        return try AppDatabase.mapErrors(path: path, "cannot open the database") {
            let database = StoreReader(try DatabaseQueue(path: immutableURI(path), configuration: configuration), path: path)
            try database.checkSchema()
            return database
        }
    }

    /// SQLite's answers when a WAL file cannot be read without creating -shm/-wal.
    private static func needsImmutable(_ error: DatabaseError) -> Bool {
        [ResultCode.SQLITE_CANTOPEN, .SQLITE_READONLY].contains(error.resultCode)
    }

    /// A `file:` URI (the system SQLite is built with SQLITE_USE_URI) with the path
    /// percent-encoded so `?` or `#` in a folder name stay part of it.
    static func immutableURI(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#")
        return "file:\(path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)?immutable=1"
    }

    /// Reads the applied migrations without running any. Throws GRDB's error untouched
    /// so `open` can tell a missing -shm from the rest.
    private func checkSchema() throws {
        let migrator = AppDatabase.migrator
        let (superseded, complete) = try connection.readUnmapped { db in
            (try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db))
        }
        if superseded {
            throw TwfeedError(
                .configuration,
                "\(path): written by a newer twfeed (its schema has migrations this build does not know); upgrade twfeed"
            )
        }
        if !complete {
            throw TwfeedError(.unavailable, "\(path): written by an older twfeed: run twfeed run once to upgrade it")
        }
    }
}
