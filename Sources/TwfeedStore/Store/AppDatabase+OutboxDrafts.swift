import Foundation
import GRDB
import TwfeedBilling
import TwfeedCore

/// Queuing what the outbox's second floor sends (photos, threads, a time to send,
/// deletions), and recording each step of sending them, every one its own commit.
extension AppDatabase {
    /// Queues a post with its photos' bytes, in one transaction (fsynced on a durable
    /// database, as `enqueue(text:replyTo:now:)`).
    package func enqueue(_ draft: StatusDraft, now: Date) async throws -> OutboxItem {
        try await write { [durable, path] db in
            try Self.requireDurable(durable, path: path, db)
            let id = try Self.insertDraft(draft, thread: nil, now: now, db)
            return try Self.outboxItem(id, db)!
        }
    }

    /// Queues a thread whole or not at all: part 1 replies to `parts[0].replyTo` (if
    /// any); each later part is sent as a reply to the one before once its id is known.
    package func enqueueThread(_ parts: [StatusDraft], now: Date) async throws -> [OutboxItem] {
        guard !parts.isEmpty else { throw TwfeedError(.invalidData, "thread: no parts") }
        return try await write { [durable, path] db in
            try Self.requireDurable(durable, path: path, db)
            var ids: [Int64] = []
            for (index, draft) in parts.enumerated() {
                let thread = OutboxThread(id: ids.first ?? 0, part: index + 1, parts: parts.count)
                ids.append(try Self.insertDraft(draft, thread: thread, now: now, db))
            }
            // The first part's id names the thread; it is known only once inserted.
            try db.execute(sql: "UPDATE outbox SET threadId = ? WHERE id = ?", arguments: [ids[0], ids[0]])
            return try ids.map { try Self.outboxItem($0, db)! }
        }
    }

    /// Queues the deletion of one of the account's own stored posts. Refused (65, one
    /// line naming the post) for a post not stored, another's, already deleted, or whose
    /// deletion is already queued; and for the id of a status still queued, which
    /// `outbox cancel` withdraws instead.
    package func enqueueDeletion(of tweetID: TweetID, now: Date) async throws -> OutboxItem {
        try await write { [durable, path] db in
            try Self.requireDurable(durable, path: path, db)
            guard let me = try Self.account(db)?.userID else {
                throw TwfeedError(.invalidData, "delete \(tweetID): the account is not known yet (run the daemon or twfeed login first)")
            }
            guard let row = try Row.fetchOne(db, sql: StoreQueries.tweetAuthorAndDeletion.sql, arguments: [tweetID.rawValue]) else {
                if let queued = try Self.outboxItem(tweetID.rawValue, db), queued.state.isUnderway || queued.state == .blocked {
                    throw TwfeedError(
                        .invalidData,
                        "delete \(tweetID): that is status #\(queued.id), still queued; withdraw it with twfeed outbox cancel \(queued.id)"
                    )
                }
                throw TwfeedError(.invalidData, "delete \(tweetID): no such post of yours is stored")
            }
            guard UserID(row["authorId"] as Int64) == me else {
                throw TwfeedError(.invalidData, "delete \(tweetID): the post is not yours")
            }
            guard (row["deletedAt"] as Double?) == nil else {
                throw TwfeedError(.invalidData, "delete \(tweetID): the post is already deleted")
            }
            if let queued = try Int64.fetchOne(db, sql: StoreQueries.outboxQueuedDeletion.sql, arguments: [tweetID.rawValue]) {
                throw TwfeedError(.invalidData, "delete \(tweetID): its deletion is already queued as status #\(queued)")
            }
            try db.execute(
                sql: """
                    INSERT INTO outbox (text, state, createdAt, queuedAt, kind, targetTweetId)
                    VALUES ('', 'pending', ?, ?, 'delete', ?)
                    """,
                arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970, tweetID.rawValue]
            )
            return try Self.outboxItem(db.lastInsertedRowID, db)!
        }
    }

    /// A photo's upload answered: its media id is recorded before anything else is
    /// sent, so it is never uploaded again while the id is valid; with `charge`, the
    /// upload's ledger row in the same transaction, so a crash never keeps one without
    /// the other.
    package func recordPhotoUpload(
        outboxID: Int64,
        position: Int,
        mediaID: String,
        expiresAt: Date?,
        charge: (bill: BillableAnswer, prices: Prices, now: Date)? = nil
    ) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE outboxPhoto SET mediaId = ?, mediaExpiresAt = ?, altSetAt = NULL WHERE outboxId = ? AND position = ?",
                arguments: [mediaID, expiresAt?.timeIntervalSince1970, outboxID, position]
            )
            if let charge { _ = try Self.recordSpend(charge.bill, prices: charge.prices, now: charge.now, db) }
        }
    }

    /// Its alt text is set on its media id.
    package func recordPhotoAlt(outboxID: Int64, position: Int, at date: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE outboxPhoto SET altSetAt = ? WHERE outboxId = ? AND position = ?",
                arguments: [date.timeIntervalSince1970, outboxID, position]
            )
        }
    }

    /// Its media id expired (or the API no longer knows it): it is uploaded again.
    package func forgetPhotoUpload(outboxID: Int64, position: Int) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE outboxPhoto SET mediaId = NULL, mediaExpiresAt = NULL, altSetAt = NULL WHERE outboxId = ? AND position = ?",
                arguments: [outboxID, position]
            )
        }
    }

    /// The account's deletion of a post went out: the post stays stored, marked.
    package func markTweetDeleted(_ tweetID: TweetID, at date: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE tweet SET deletedAt = ? WHERE id = ? AND deletedAt IS NULL",
                arguments: [date.timeIntervalSince1970, tweetID.rawValue]
            )
        }
    }

    static func requireDurable(_ durable: Bool, path: String, _ db: Database) throws {
        if durable, let level = try Int.fetchOne(db, sql: "PRAGMA synchronous"), level < 2 {
            throw TwfeedError(.io, "\(path): the database would not fsync the queued status (synchronous=\(level))")
        }
    }

    static func insertDraft(_ draft: StatusDraft, thread: OutboxThread?, now: Date, _ db: Database) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO outbox (text, replyToId, state, createdAt, queuedAt, kind, notBefore, threadId, threadPart, threadParts)
                VALUES (?, ?, 'pending', ?, ?, 'post', ?, ?, ?, ?)
                """,
            arguments: [
                draft.text, draft.replyTo?.rawValue, now.timeIntervalSince1970, now.timeIntervalSince1970,
                draft.notBefore?.timeIntervalSince1970, thread.flatMap { $0.id == 0 ? nil : $0.id },
                thread?.part, thread?.parts,
            ]
        )
        let id = db.lastInsertedRowID
        for (position, photo) in draft.photos.enumerated() {
            try db.execute(
                sql: """
                    INSERT INTO outboxPhoto (outboxId, position, fileName, type, byteCount, bytes, alt)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [id, position, photo.fileName, photo.type.rawValue, photo.bytes.count, photo.bytes, photo.alt]
            )
        }
        return id
    }

    /// What marking a status sent does besides: the next part of its thread replies to
    /// the post it became, its photos' bytes, sent, are dropped, and a deletion's post is
    /// marked deleted (at the deletion's `sentAt`), so neither can stand without the other.
    static func afterSent(_ id: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE tweet SET deletedAt = (SELECT sentAt FROM outbox WHERE id = ?1)
                WHERE id = (SELECT targetTweetId FROM outbox WHERE id = ?1 AND kind = 'delete') AND deletedAt IS NULL
                """,
            arguments: [id]
        )
        try db.execute(
            sql: """
                UPDATE outbox SET replyToId = parent.sentTweetId
                FROM (SELECT threadId, threadPart, sentTweetId FROM outbox WHERE id = ?) AS parent
                WHERE outbox.threadId = parent.threadId AND outbox.threadPart = parent.threadPart + 1
                """,
            arguments: [id]
        )
        try db.execute(sql: "UPDATE outboxPhoto SET bytes = NULL WHERE outboxId = ?", arguments: [id])
    }

    /// The items with their photos (a primary-key range per item; most have none).
    static func withPhotos(_ items: [OutboxItem], _ db: Database) throws -> [OutboxItem] {
        try items.map { item in
            var item = item
            item.photos = try Row.fetchAll(db.cachedStatement(sql: StoreQueries.outboxPhotos.sql), arguments: [item.id])
                .map(OutboxPhoto.init(row:))
            return item
        }
    }
}

extension OutboxPhoto {
    init(row: Row) {
        self.init(
            position: row["position"],
            fileName: row["fileName"],
            type: PhotoType(rawValue: row["type"]) ?? .jpeg,
            byteCount: row["byteCount"],
            alt: row["alt"],
            mediaID: row["mediaId"],
            mediaExpiresAt: (row["mediaExpiresAt"] as Double?).map(Date.init(timeIntervalSince1970:)),
            altSetAt: (row["altSetAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        )
    }
}

extension StoreReading {
    /// A queued photo's bytes; nil once its post went out (they are dropped then).
    package func photoBytes(outboxID: Int64, position: Int) async throws -> Data? {
        try await read { db in
            try Data.fetchOne(db, sql: StoreQueries.outboxPhotoBytes.sql, arguments: [outboxID, position])
        }
    }

    /// The oldest pending status that may go now: its time to send reached and, for a
    /// thread's later part, its parent sent with a known id. Later statuses may pass one
    /// that waits for its time; a thread's parts never pass each other.
    package func nextDueOutboxItem(now: Date) async throws -> OutboxItem? {
        try await read { db in
            try Row.fetchOne(db, sql: StoreQueries.outboxNextDue.sql, arguments: [now.timeIntervalSince1970])
                .map { try AppDatabase.withPhotos([OutboxItem(row: $0)], db)[0] }
        }
    }

    /// The earliest time to send still ahead: when the flusher looks again.
    package func nextOutboxTime(after now: Date) async throws -> Date? {
        try await read { db in
            try Double.fetchOne(db, sql: StoreQueries.outboxNextTime.sql, arguments: [now.timeIntervalSince1970])
                .map(Date.init(timeIntervalSince1970:))
        }
    }

    /// One stored post by its id (its columns only, no graph): a deletion's target.
    package func storedTweet(_ id: TweetID) async throws -> Tweet? {
        try await read { db in
            try Row.fetchOne(db, sql: StoreQueries.tweetByID.sql, arguments: [id.rawValue]).map { AppDatabase.tweet($0) }
        }
    }

    /// A thread's parts in order.
    package func threadParts(_ threadID: Int64) async throws -> [OutboxItem] {
        try await read { db in
            try AppDatabase.withPhotos(
                Row.fetchAll(db, sql: StoreQueries.outboxThreadParts.sql, arguments: [threadID]).map(OutboxItem.init(row:)),
                db
            )
        }
    }
}
