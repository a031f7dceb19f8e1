import Foundation
import GRDB
import TwfeedCore

/// Every read of the store, for the daemon's writer (`AppDatabase`) and for the read-only
/// `StoreReader` alike, as GRDB's `DatabaseWriter` refines its `DatabaseReader`. The reads
/// live in extensions of this protocol, each SELECT one of `StoreQueries`; nothing here
/// writes, so a holder of a `StoreReader` cannot change the database.
package protocol StoreReading: Sendable {
    var connection: StoreConnection { get }
}

extension StoreReading {
    /// Names the database in error messages: the file, or "memory".
    var path: String { connection.path }

    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.read(value)
    }
}
