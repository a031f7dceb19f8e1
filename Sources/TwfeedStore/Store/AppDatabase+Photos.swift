import Foundation
import GRDB
import TwfeedCore

/// A picture the photo fetcher is to request: not on disk (new, lost, or evicted and
/// shown since), its retry due, or refused under a policy that has changed since.
package struct PhotoCandidate: Sendable, Equatable {
    package var url: String
    /// Failed attempts so far: the next failure's backoff doubles from them.
    package var failures: Int
}

extension AppDatabase {
    /// Calls `onChange` after each commit that stored posts (a page, a lookup: their
    /// media come in the same transaction), so the photo fetcher looks at once. It
    /// watches `tweet`, not `media` or `photo`: SQLite tells nothing of changes to
    /// WITHOUT ROWID tables (no update hook), and the fetcher never rings itself.
    package func observePostChanges(_ onChange: @escaping @Sendable () -> Void) -> StoreObservation {
        observe(tables: ["tweet"], onChange: onChange)
    }

    /// The pictures to request now, most recently used first, at most `limit`.
    package func photoCandidates(policy: String, now: Date, limit: Int) async throws -> [PhotoCandidate] {
        try await read { db in
            let arguments: StatementArguments = ["now": now.timeIntervalSince1970, "policy": policy, "limit": limit]
            let rows =
                try Row.fetchAll(db, sql: StoreQueries.photosWanted.sql, arguments: arguments)
                + Row.fetchAll(db, sql: StoreQueries.photosRefusedUnderOldPolicy.sql, arguments: arguments)
            return rows.prefix(limit).map { PhotoCandidate(url: $0["url"], failures: $0["failures"]) }
        }
    }

    /// When the earliest failed picture may be tried again, if any.
    package func nextPhotoDue() async throws -> Date? {
        try await read { db in
            try Double.fetchOne(db, sql: StoreQueries.nextPhotoDue.sql).map(Date.init(timeIntervalSince1970:))
        }
    }

    /// A 200: the photo names its file. Returns the file it named before when no row
    /// names that any more (the caller deletes it, holding the store's lock). A photo
    /// that no post shows any more (gone while it was downloading) names nothing, and
    /// its new file is returned to be deleted.
    package func recordPhotoFetched(url: String, file: String, bytes: Int, now: Date) async throws -> String? {
        try await write { db in
            let previous = try String.fetchOne(db, sql: StoreQueries.photoFileOf.sql, arguments: [url])
            try db.execute(
                sql: """
                    UPDATE photo SET file = ?, bytes = ?, fetchedAt = ?, evictedAt = NULL, rejectedReason = NULL,
                        rejectedPolicy = NULL, failures = 0, retryAt = NULL, lastError = NULL
                    WHERE url = ?
                    """,
                arguments: [file, bytes, now.timeIntervalSince1970, url]
            )
            func unused(_ file: String) throws -> Bool {
                try (Int.fetchOne(db, sql: StoreQueries.imageFileUsers.sql, arguments: [file]) ?? 0) == 0
            }
            guard db.changesCount > 0 else { return try unused(file) ? file : nil }
            guard let previous, previous != file else { return nil }
            return try unused(previous) ? previous : nil
        }
    }

    /// A refusal (the URL, the answer's type or size): not tried again until the policy changes.
    package func recordPhotoRejected(url: String, reason: String, policy: String) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE photo SET rejectedReason = ?, rejectedPolicy = ?, failures = 0, retryAt = NULL, lastError = NULL
                    WHERE url = ?
                    """,
                arguments: [reason, policy, url]
            )
        }
    }

    /// A transient failure: tried again at `retryAt`.
    package func recordPhotoFailed(url: String, error: ImageFailure, failures: Int, retryAt: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE photo SET failures = ?, retryAt = ?, lastError = ? WHERE url = ?",
                arguments: [failures, retryAt.timeIntervalSince1970, error.description, url]
            )
        }
    }
}

/// What the photo fetcher knows of one picture: for `status`-like views and tests.
package struct PhotoRecord: Sendable, Equatable {
    package var url: String
    package var file: String?
    package var bytes: Int
    package var lastUsedAt: Date
    package var fetchedAt: Date?
    package var evictedAt: Date?
    package var rejectedReason: String?
    package var failures: Int
    package var retryAt: Date?
    package var lastError: ImageFailure?

    init(row: Row) {
        url = row["url"]
        file = row["file"]
        bytes = row["bytes"]
        lastUsedAt = Date(timeIntervalSince1970: row["lastUsedAt"])
        fetchedAt = (row["fetchedAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        evictedAt = (row["evictedAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        rejectedReason = row["rejectedReason"]
        failures = row["failures"]
        retryAt = (row["retryAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        lastError = (row["lastError"] as String?).map(ImageFailure.init(stored:))
    }
}

extension StoreReading {
    package func photo(_ url: String) async throws -> PhotoRecord? {
        try await read { db in try Row.fetchOne(db, sql: StoreQueries.photo.sql, arguments: [url]).map(PhotoRecord.init(row:)) }
    }
}
