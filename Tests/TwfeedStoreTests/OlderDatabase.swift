import Foundation
import GRDB
import Testing
@testable import TwfeedStore

/// A database file as an older twfeed left it: migrated up to the migration before
/// `identifier`, for a test to fill with that version's rows, then opened by this version,
/// which runs the rest (the migration tests of v16, v18 and v20).
struct OlderDatabase {
    let path: String
    /// The older version's connection: write its rows through it.
    let queue: DatabaseQueue

    init(before identifier: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-older-\(UUID().uuidString.prefix(8)).sqlite").path
        let index = try #require(AppDatabase.migrations.firstIndex { $0.identifier == identifier })
        queue = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(queue, upTo: AppDatabase.migrations[index - 1].identifier)
    }

    /// Closes the older version's connection and opens the file as the daemon does.
    func openMigrated() throws -> AppDatabase {
        try queue.close()
        return try AppDatabase.open(path: path)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
