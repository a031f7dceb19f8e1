import Foundation
import GRDB
import TwfeedCore

/// What the database knows about an author's cached profile image.
package struct ProfileImageRecord: Sendable, Equatable {
    package var authorID: UserID
    /// The author's `profileImageURL` this row answers (a change means a new picture).
    package var sourceURL: String
    /// `images.size` when the row was written.
    package var size: String
    /// The URL of that size: what was fetched, or refused.
    package var url: String
    /// `ab/cd/<sha256>.<ext>` under the cache folder; nil while nothing is on disk.
    package var file: String?
    package var etag: String?
    package var lastModified: String?
    package var bytes: Int
    /// The last 200 or 304: revalidation is due `revalidateDays` after it.
    package var fetchedAt: Date?
    /// The last time the author appeared in a stored page: the janitor evicts the least
    /// recently used files first.
    package var lastUsedAt: Date
    /// When the janitor evicted the file; it is fetched again once the author is used after that.
    package var evictedAt: Date?
    /// Why `url` was refused; it is not tried again until the author's URL changes, or
    /// the policy does (`rejectedPolicy`: `ImagePolicy.key` when it was refused).
    package var rejectedReason: String?
    package var rejectedPolicy: String?
    package var failures: Int
    package var retryAt: Date?
    package var lastError: ImageFailure?

    init(row: Row) {
        authorID = UserID(row["authorId"] as Int64)
        sourceURL = row["sourceURL"]
        size = row["size"]
        url = row["url"]
        file = row["file"]
        etag = row["etag"]
        lastModified = row["lastModified"]
        bytes = row["bytes"]
        fetchedAt = (row["fetchedAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        lastUsedAt = Date(timeIntervalSince1970: row["lastUsedAt"])
        evictedAt = (row["evictedAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        rejectedReason = row["rejectedReason"]
        rejectedPolicy = row["rejectedPolicy"]
        failures = row["failures"]
        retryAt = (row["retryAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        lastError = (row["lastError"] as String?).map(ImageFailure.init(stored:))
    }
}

/// An author whose image needs a request: new, changed, evicted and used since, lost
/// from disk, or due for revalidation.
package struct ImageCandidate: Sendable, Equatable {
    package var authorID: UserID
    /// The author's current `profileImageURL`.
    package var sourceURL: String
    /// When the author last appeared in a stored page.
    package var usedAt: Date
    /// The row as it stands, nil for an author never seen by the fetcher.
    package var record: ProfileImageRecord?
}

extension AppDatabase {
    /// Calls `onChange` after each commit that stored authors (a page, or our own
    /// status), so the image fetcher looks for new or changed pictures at once instead
    /// of polling. Runs until the returned observation is cancelled or released.
    package func observeAuthorChanges(_ onChange: @escaping @Sendable () -> Void) -> StoreObservation {
        observe(tables: ["user"], onChange: onChange)
    }

    /// Carries each author's last appearance in a stored page (`user.updatedAt`) over to
    /// their image's `lastUsedAt`: one statement per fetcher cycle instead of work in the
    /// hot path that stores pages.
    @discardableResult
    package func touchImagesFromAuthors() async throws -> Int {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE profileImage SET lastUsedAt = (SELECT updatedAt FROM user WHERE user.id = profileImage.authorId)
                    WHERE lastUsedAt < (SELECT updatedAt FROM user WHERE user.id = profileImage.authorId)
                    """
            )
            return db.changesCount
        }
    }

    /// Authors whose image needs a request now, most recently used first.
    package func imageCandidates(size: String, policy: String, now: Date, staleBefore: Date) async throws -> [ImageCandidate] {
        try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: StoreQueries.imageCandidates.sql,
                arguments: [
                    "size": size, "policy": policy, "now": now.timeIntervalSince1970, "stale": staleBefore.timeIntervalSince1970,
                ]
            )
            return rows.map { row in
                ImageCandidate(
                    authorID: UserID(row["uid"] as Int64),
                    sourceURL: row["currentURL"],
                    usedAt: Date(timeIntervalSince1970: row["usedAt"]),
                    record: (row["authorId"] as Int64?) == nil ? nil : ProfileImageRecord(row: row)
                )
            }
        }
    }

    /// The earliest time a row becomes due by itself (revalidation or a retry), if any.
    package func nextImageDue(revalidateSeconds: Double) async throws -> Date? {
        try await read { db in
            try Double.fetchOne(db, sql: StoreQueries.nextImageDue.sql, arguments: ["revalidate": revalidateSeconds]).map(
                Date.init(timeIntervalSince1970:)
            )
        }
    }

    /// Where an image's outcome goes: which author, URL and size it answers.
    package struct ImageSubject: Sendable {
        package var authorID: UserID
        package var sourceURL: String
        package var size: String
        package var url: String
        package var usedAt: Date

        package init(authorID: UserID, sourceURL: String, size: String, url: String, usedAt: Date) {
            self.authorID = authorID
            self.sourceURL = sourceURL
            self.size = size
            self.url = url
            self.usedAt = usedAt
        }
    }

    /// A 200: the row names the new file. Returns the file it named before if no row
    /// names that any more (the caller deletes it, holding the store's lock).
    ///
    /// The writes here are async (GRDB's writer queue): the fetcher never blocks a
    /// thread of the cooperative pool, where the feed pollers run, waiting for the writer.
    package func recordImageFetched(
        _ subject: ImageSubject,
        file: String,
        bytes: Int,
        etag: String?,
        lastModified: String?,
        now: Date
    ) async throws -> String? {
        try await replaceImageRow(
            subject,
            now: now,
            values: [
                "file": file, "etag": etag, "lastModified": lastModified, "bytes": bytes,
                "fetchedAt": now.timeIntervalSince1970, "evictedAt": nil, "rejectedReason": nil, "rejectedPolicy": nil,
                "failures": 0, "retryAt": nil, "lastError": nil,
            ]
        )
    }

    /// A 304: the file stays; the clock for the next revalidation restarts.
    package func recordImageNotModified(_ subject: ImageSubject, etag: String?, lastModified: String?, now: Date) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE profileImage SET fetchedAt = ?, etag = coalesce(?, etag), lastModified = coalesce(?, lastModified),
                        failures = 0, retryAt = NULL, lastError = NULL, lastUsedAt = max(lastUsedAt, ?)
                    WHERE authorId = ?
                    """,
                arguments: [
                    now.timeIntervalSince1970, etag, lastModified, subject.usedAt.timeIntervalSince1970,
                    subject.authorID.rawValue,
                ]
            )
        }
    }

    /// A refusal: remembered with its reason so it is logged once and not tried again
    /// until the author's URL, or the policy, changes. Returns a file no row names any more.
    package func recordImageRejected(_ subject: ImageSubject, reason: String, policy: String, now: Date) async throws -> String? {
        try await replaceImageRow(
            subject,
            now: now,
            values: [
                "file": nil, "etag": nil, "lastModified": nil, "bytes": 0, "fetchedAt": nil, "evictedAt": nil,
                "rejectedReason": reason, "rejectedPolicy": policy, "failures": 0, "retryAt": nil, "lastError": nil,
            ]
        )
    }

    /// A transient failure (network, timeout, an HTTP error): retried at `retryAt`. The
    /// file of the same URL is kept meanwhile. Returns a file no row names any more.
    package func recordImageFailed(_ subject: ImageSubject, error: ImageFailure, failures: Int, retryAt: Date, now: Date) async throws -> String? {
        // The same URL as the row's: only the failure is noted, the file stays.
        let noted = try await write { db in
            try db.execute(
                sql: """
                    UPDATE profileImage SET failures = ?, retryAt = ?, lastError = ?, lastUsedAt = max(lastUsedAt, ?)
                    WHERE authorId = ? AND url = ? AND sourceURL = ?
                    """,
                arguments: [
                    failures, retryAt.timeIntervalSince1970, error.description, subject.usedAt.timeIntervalSince1970,
                    subject.authorID.rawValue, subject.url, subject.sourceURL,
                ]
            )
            return db.changesCount > 0
        }
        if noted { return nil }
        return try await replaceImageRow(
            subject,
            now: now,
            values: [
                "file": nil, "etag": nil, "lastModified": nil, "bytes": 0, "fetchedAt": nil, "evictedAt": nil,
                "rejectedReason": nil, "rejectedPolicy": nil, "failures": failures, "retryAt": retryAt.timeIntervalSince1970,
                "lastError": error.description,
            ]
        )
    }

    private func replaceImageRow(_ subject: ImageSubject, now: Date, values: [String: (any DatabaseValueConvertible)?]) async throws -> String? {
        let values = values.mapValues { $0?.databaseValue ?? .null }
        let newFile = String.fromDatabaseValue(values["file"] ?? .null)
        return try await write { db in
            let previous = try String.fetchOne(db, sql: StoreQueries.imageFileOf.sql, arguments: [subject.authorID.rawValue])
            let columns = ["authorId", "sourceURL", "size", "url", "lastUsedAt"] + values.keys.sorted()
            var arguments: [DatabaseValue] = [
                subject.authorID.rawValue.databaseValue, subject.sourceURL.databaseValue, subject.size.databaseValue,
                subject.url.databaseValue, subject.usedAt.timeIntervalSince1970.databaseValue,
            ]
            arguments += values.keys.sorted().map { values[$0]! }
            let updates = columns.dropFirst().map { column in
                column == "lastUsedAt" ? "lastUsedAt = max(lastUsedAt, excluded.lastUsedAt)" : "\(column) = excluded.\(column)"
            }
            try db.execute(
                sql: """
                    INSERT INTO profileImage (\(columns.joined(separator: ", "))) VALUES (\(databaseQuestionMarks(count: columns.count)))
                    ON CONFLICT(authorId) DO UPDATE SET \(updates.joined(separator: ", "))
                    """,
                arguments: StatementArguments(arguments)
            )
            guard let previous, previous != newFile else { return nil }
            let users = try Int.fetchOne(db, sql: StoreQueries.imageFileUsers.sql, arguments: [previous]) ?? 0
            return users == 0 ? previous : nil
        }
    }

    // MARK: The janitor's view

    /// Every row that names a file: avatars and photos, one cache.
    package func imageFileRows() async throws -> [(file: String, lastUsedAt: Date)] {
        try await read { db in
            try Row.fetchAll(db, sql: StoreQueries.imageFileRows.sql).map { row in
                (row["file"], Date(timeIntervalSince1970: row["lastUsedAt"]))
            }
        }
    }

    /// Forgets files, avatars' and photos': evicted ones (`evictedAt` set: fetched again
    /// only once their author or post is used after that) or lost ones (`evictedAt` nil:
    /// fetched again at once). Their validators go too, since a 304 would bring back
    /// nothing to show.
    package func clearImageFiles(_ files: [String], evictedAt: Date?) async throws {
        guard !files.isEmpty else { return }
        try await write { db in
            let statement = try db.cachedStatement(
                sql: """
                    UPDATE profileImage SET file = NULL, etag = NULL, lastModified = NULL, bytes = 0, fetchedAt = NULL, evictedAt = ?
                    WHERE file = ?
                    """
            )
            let photos = try db.cachedStatement(
                sql: "UPDATE photo SET file = NULL, bytes = 0, fetchedAt = NULL, evictedAt = ? WHERE file = ?"
            )
            for file in files {
                try statement.execute(arguments: [evictedAt?.timeIntervalSince1970, file])
                try photos.execute(arguments: [evictedAt?.timeIntervalSince1970, file])
            }
        }
    }

}

extension StoreReading {
    package func profileImage(_ authorID: UserID) async throws -> ProfileImageRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: StoreQueries.profileImage.sql, arguments: [authorID.rawValue])
                .map(ProfileImageRecord.init(row:))
        }
    }

    package func profileImages() async throws -> [ProfileImageRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: StoreQueries.profileImages.sql).map(ProfileImageRecord.init(row:))
        }
    }

    /// Distinct files the rows name, and their bytes: two stored numbers (migration
    /// "v10: image cache counts"), so asking costs the same with 10 files or 100,000.
    package func imageCacheTotals() async throws -> (files: Int, bytes: Int64) {
        try await read { db in try AppDatabase.imageCacheTotals(db) }
    }

}

extension AppDatabase {
    static func imageCacheTotals(_ db: Database) throws -> (files: Int, bytes: Int64) {
        guard let row = try Row.fetchOne(db, sql: StoreQueries.imageCacheTotals.sql) else { return (0, 0) }
        return (row["files"], row["bytes"])
    }
}
