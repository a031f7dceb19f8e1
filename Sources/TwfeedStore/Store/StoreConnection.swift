import Foundation
import GRDB
import TwfeedCore

/// The database connection as the reads see it: the writer's pool, or a reader's
/// read-only queue. Its methods are internal, so only the store's own files can hand it
/// SQL; other targets can hold one (through `StoreReading`) but not use it.
package final class StoreConnection: Sendable {
    private let dbReader: any GRDB.DatabaseReader
    /// Names the database in error messages: the file, or "memory".
    let path: String

    init(_ dbReader: any GRDB.DatabaseReader, path: String) {
        self.dbReader = dbReader
        self.path = path
    }

    func read<T>(_ value: (Database) throws -> T) throws -> T {
        try AppDatabase.mapErrors(path: path, "cannot read the database") { try dbReader.read(value) }
    }

    /// The read runs whole on a thread of Dispatch's, never as GRDB's async read: that one
    /// holds its pooled reader until the awaiting task resumes on the cooperative pool, so
    /// with two cores, two sync reads waiting there for a reader (the heartbeat's counts, a
    /// page) left every reader held by a task that could not resume: a deadlock.
    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.read(value) })
            }
        }
    }

    /// Closes the connection; every read after it fails. Tests close a reader's store to
    /// show that a route reads none of it (`/healthz` inside the daemon).
    func close() throws {
        try dbReader.close()
    }

    /// A read that lets GRDB's error through, for `StoreReader.open`, which must see
    /// SQLite's result code to choose its fallback.
    func readUnmapped<T>(_ value: (Database) throws -> T) throws -> T {
        try dbReader.read(value)
    }
}
