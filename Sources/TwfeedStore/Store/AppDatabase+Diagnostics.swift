import Foundation
import GRDB
import TwfeedCore

/// Whole-table counts and a write-lock probe, for the benchmark and for diagnostics:
/// they walk whole tables (or take the write lock), so no page and no service calls
/// them. Here so that nothing outside the store names a table or imports GRDB.
extension StoreReading {
    /// Every stored tweet (feed members and the tweets they refer to), all accounts.
    package func storedTweetCount() async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: StoreQueries.tweetCount.sql) ?? 0 }
    }

    /// Authors that have a profile picture to fetch.
    package func authorsWithPictureCount() async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: StoreQueries.authorsWithPicture.sql) ?? 0 }
    }
}

extension AppDatabase {
    /// The migrations this build knows, in order: a benchmark's cached database is built
    /// anew when they change.
    package static var migrationIdentifiers: [String] { migrations.map(\.identifier) }

    /// Takes the write lock and gives it back at once, returning how long it waited:
    /// the benchmark's probe of how long another writer would wait while the daemon writes.
    package func writeLockWait() async throws -> Double {
        let asked = DispatchTime.now()
        try await write { _ in }
        return Double(DispatchTime.now().uptimeNanoseconds - asked.uptimeNanoseconds) / 1e9
    }
}
