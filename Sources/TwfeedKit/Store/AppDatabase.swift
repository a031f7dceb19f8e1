import Foundation
import GRDB

/// Owns the SQLite database: its connection (a WAL pool, so `twfeed feed` and
/// `twfeed status` read while the daemon writes) and its migrations, which run on every
/// open so an upgrade needs no separate step.
public final class AppDatabase: Sendable {
    public let writer: any DatabaseWriter

    public var reader: any DatabaseReader { writer }

    init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// Opens (creating when needed) the database file.
    ///
    /// - Parameter durable: `synchronous=FULL`, for writers whose caller must know the
    ///   row survives a power loss once they return (`twfeed post`). The daemon uses
    ///   NORMAL, which survives a crash of the process.
    public static func open(path: String, durable: Bool = false, readOnly: Bool = false) throws -> AppDatabase {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty && !readOnly {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw TwfeedError(.io, "\(directory): cannot create the database folder: \(error.localizedDescription)")
            }
        }
        var configuration = GRDB.Configuration()
        configuration.busyMode = .timeout(10)
        configuration.readonly = readOnly
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(durable ? "FULL" : "NORMAL")")
        }
        if !readOnly {
            // The database holds the user's timelines: private. SQLite gives the -wal and
            // -shm files the main file's mode, so creating it 0600 is enough (changing
            // the umask instead would race every other thread creating files).
            let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        }
        do {
            return try AppDatabase(try DatabasePool(path: path, configuration: configuration))
        } catch let error as DatabaseError {
            throw TwfeedError(.io, "\(path): cannot open the database: \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// An empty database in memory, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(try DatabaseQueue())
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users, tweets, feeds, sync state") { db in
            try db.execute(sql: """
                CREATE TABLE user (
                    id INTEGER PRIMARY KEY,
                    username TEXT NOT NULL,
                    name TEXT NOT NULL,
                    profileImageURL TEXT,
                    updatedAt DOUBLE NOT NULL
                );
                CREATE TABLE tweet (
                    id INTEGER PRIMARY KEY,
                    authorId INTEGER NOT NULL,
                    createdAt DOUBLE NOT NULL,
                    text TEXT NOT NULL,
                    inReplyToId INTEGER,
                    retweetOfId INTEGER,
                    quotedId INTEGER,
                    conversationId INTEGER,
                    raw TEXT NOT NULL,
                    fetchedAt DOUBLE NOT NULL
                );
                CREATE INDEX tweet_author ON tweet(authorId);
                CREATE TABLE feedMembership (
                    feed TEXT NOT NULL,
                    tweetId INTEGER NOT NULL REFERENCES tweet(id) ON DELETE CASCADE,
                    addedAt DOUBLE NOT NULL,
                    PRIMARY KEY (feed, tweetId)
                ) WITHOUT ROWID;
                CREATE TABLE syncState (
                    feed TEXT PRIMARY KEY,
                    newestId INTEGER,
                    pendingTopId INTEGER,
                    pendingBottomId INTEGER,
                    lastPollAt DOUBLE,
                    lastSuccessAt DOUBLE,
                    lastError TEXT,
                    failures INTEGER NOT NULL DEFAULT 0,
                    rateLimitLimit INTEGER,
                    rateLimitRemaining INTEGER,
                    rateLimitResetAt DOUBLE,
                    nextPollAt DOUBLE
                );
                CREATE TABLE account (
                    key TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                );
                """)
        }
        registerOutboxMigration(&migrator)
        registerImageMigration(&migrator)
        return migrator
    }
}
