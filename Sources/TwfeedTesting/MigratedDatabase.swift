import Foundation
import TwfeedStore

/// A fresh database file on which every migration has already run: the bytes of one
/// such file, made once per process. A test that opens a daemon on a new database (the
/// fault matrix does 168 times) would otherwise pay the migrations each time, about 20 ms
/// of DDL in which every statement parses the schema so far. The store's own tests, and
/// every `twfeed` process the suite starts, still create theirs by migrating.
package enum MigratedDatabase {
    /// Opened, migrated and closed in a scratch folder: the pool checkpoints its WAL into
    /// the file when its last connection closes, so the file alone is the whole database.
    private static let bytes = Result<Data, any Error> {
        let folder = try ScratchFolder(prefix: "twfeed-migrated")
        let path = "\(folder.path)/twfeed.sqlite"
        do { _ = try AppDatabase.open(path: path) }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Opens the database at `path`, first writing the migrated file there when none
    /// exists.
    package static func open(path: String) throws -> AppDatabase {
        try write(to: path)
        return try AppDatabase.open(path: path)
    }

    /// Writes the migrated file at `path` unless a file is there; private, as
    /// `AppDatabase.open` creates one.
    package static func write(to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let created = FileManager.default.createFile(atPath: path, contents: try bytes.get(), attributes: [.posixPermissions: 0o600])
        guard created else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }
}
