import Foundation
import GRDB
import TwfeedCore

extension AppDatabase {
    /// Queues a status. Returns once the row is committed; on a durable database (`open(path:durable: true)`,
    /// `twfeed post`) once it is fsynced too: the writing connection's `synchronous` is
    /// checked inside the same transaction, and anything below FULL is refused rather
    /// than reported queued.
    package func enqueue(text: String, replyTo: TweetID?, now: Date) async throws -> OutboxItem {
        try await enqueue(StatusDraft(text: text, replyTo: replyTo), now: now)
    }

    static func outboxItem(_ id: Int64, _ db: Database) throws -> OutboxItem? {
        try Row.fetchOne(db, sql: StoreQueries.outboxItem.sql, arguments: [id]).map { try withPhotos([OutboxItem(row: $0)], db)[0] }
    }

    /// Moves a status between states, only if it is in one of `from` (so a cancel and a
    /// send cannot both win), applying `changes` in the same statement. Returns the
    /// updated item, or nil if it was not in `from`.
    @discardableResult
    package func transitionOutbox(
        _ id: Int64,
        from: [OutboxState],
        to state: OutboxState,
        changes: [OutboxChange] = []
    ) async throws -> OutboxItem? {
        try await write { db in try Self.transitionOutbox(id, from: from, to: state, changes: changes, db) }
    }

    static func transitionOutbox(
        _ id: Int64,
        from: [OutboxState],
        to state: OutboxState,
        changes: [OutboxChange],
        _ db: Database
    ) throws -> OutboxItem? {
        var assignments = ["state = ?"]
        var arguments: [(any DatabaseValueConvertible)?] = [state.rawValue]
        for (column, value) in changes.map(\.column).sorted(by: { $0.0 < $1.0 }) {
            assignments.append("\(column) = ?")
            arguments.append(value)
        }
        let placeholders = from.map { _ in "?" }.joined(separator: ", ")
        arguments.append(id)
        arguments += from.map(\.rawValue)
        try db.execute(
            sql: "UPDATE outbox SET \(assignments.joined(separator: ", ")) WHERE id = ? AND state IN (\(placeholders))",
            arguments: StatementArguments(arguments)
        )
        guard db.changesCount == 1 else { return nil }
        if state == .sent { try afterSent(id, db) }
        return try outboxItem(id, db)
    }
}

extension OutboxChange {
    /// The column and value this change sets: the only place outbox column names live
    /// outside the migration.
    fileprivate var column: (String, (any DatabaseValueConvertible)?) {
        switch self {
        case .attempts(let count): ("attempts", count)
        case .queuedAt(let date): ("queuedAt", date.timeIntervalSince1970)
        case .nextAttemptAt(let date): ("nextAttemptAt", date?.timeIntervalSince1970)
        case .lastAttemptAt(let date): ("lastAttemptAt", date.timeIntervalSince1970)
        // The line itself, which the `posts` view shows as it is (OutboxFailure).
        case .lastError(let failure): ("lastError", failure?.description)
        case .sentTweetID(let tweetID): ("sentTweetId", tweetID?.rawValue)
        case .sentAt(let date): ("sentAt", date.timeIntervalSince1970)
        case .uncertainSince(let date): ("uncertainSince", date?.timeIntervalSince1970)
        case .newestIDBeforeAttempt(let id): ("newestIdBeforeAttempt", id?.rawValue)
        }
    }
}

extension OutboxItem {
    init(row: Row) {
        func date(_ column: String) -> Date? { (row[column] as Double?).map(Date.init(timeIntervalSince1970:)) }
        self.init(
            id: row["id"],
            text: row["text"],
            replyToID: (row["replyToId"] as Int64?).map(TweetID.init),
            state: OutboxState(rawValue: row["state"]) ?? .failed,
            attempts: row["attempts"],
            createdAt: Date(timeIntervalSince1970: row["createdAt"]),
            queuedAt: Date(timeIntervalSince1970: row["queuedAt"]),
            nextAttemptAt: date("nextAttemptAt"),
            lastError: (row["lastError"] as String?).map(OutboxFailure.init(stored:)),
            sentTweetID: (row["sentTweetId"] as Int64?).map(TweetID.init),
            sentAt: date("sentAt"),
            lastAttemptAt: date("lastAttemptAt"),
            // Absent in a database not yet migrated to v8 (a reader of an older file): nil.
            uncertainSince: date("uncertainSince"),
            // Absent before v12: nil, and settling falls back on `uncertainSince`.
            newestIDBeforeAttempt: (row["newestIdBeforeAttempt"] as Int64?).map(TweetID.init),
            // Absent before v19: a post, with no photos, time or thread.
            kind: (row["kind"] as String?).flatMap(OutboxKind.init(rawValue:)) ?? .post,
            notBefore: date("notBefore"),
            thread: (row["threadId"] as Int64?).map { OutboxThread(id: $0, part: row["threadPart"] ?? 1, parts: row["threadParts"] ?? 1) },
            targetTweetID: (row["targetTweetId"] as Int64?).map(TweetID.init)
        )
    }

}

extension AppDatabase {
    /// A status of ours that just went out, stored like any other tweet (no feed yet:
    /// the home poll tags it when it comes back).
    package func storeOwnTweet(_ tweet: Tweet, now: Date) async throws {
        try await write { db in try Self.storeOwnTweet(tweet, now: now, db) }
    }

    static func storeOwnTweet(_ tweet: Tweet, now: Date, _ db: Database) throws {
        _ = try insert(TimelinePage(tweets: [], referencedTweets: [tweet], authors: [], nextPageToken: nil), feed: .home, now: now, db)
    }

    /// `outbox retry`: a failed or expired status goes back in line, its age counting
    /// from now. One that may have gone out (an earlier attempt got no definite answer;
    /// or, in a database from before v8, any attempt at all) is never posted blindly:
    /// it becomes `uncertain`, and the daemon looks for it among the account's tweets
    /// before sending it again.
    ///
    /// A thread's part: the blocked parts after it come back in line with it (they wait
    /// for it to be sent). A blocked part itself goes back once its parent is on its way
    /// again or sent; before that, retrying it names the parent to retry first.
    package func retryOutbox(_ id: Int64, now: Date) async throws -> OutboxItem {
        guard let item = try await outboxItem(id) else { throw TwfeedError(.invalidData, "outbox: no status #\(id)") }
        if item.state == .blocked { return try await retryBlocked(item, now: now) }
        let legacyAttempted = item.state == .expired && item.attempts > 0 && item.uncertainSince == nil
        let mayHaveGoneOut = item.uncertainSince != nil || legacyAttempted
        let since = item.uncertainSince ?? item.lastAttemptAt ?? item.queuedAt
        guard
            let updated = try await backInLine(
                item,
                from: [.failed, .expired],
                to: mayHaveGoneOut ? .uncertain : .pending,
                changes: [
                    .uncertainSince(mayHaveGoneOut ? since : nil),
                    .newestIDBeforeAttempt(mayHaveGoneOut ? item.newestIDBeforeAttempt : nil),
                ],
                now: now
            )
        else {
            throw TwfeedError(
                .invalidData,
                "outbox: status #\(id) is \(item.state.rawValue); only failed, expired or blocked statuses can be retried"
            )
        }
        return updated
    }

    /// A blocked part back to `pending`, once its parent is not given up any more.
    private func retryBlocked(_ item: OutboxItem, now: Date) async throws -> OutboxItem {
        if let thread = item.thread, thread.part > 1,
            let parent = try await threadParts(thread.id).first(where: { $0.thread?.part == thread.part - 1 })
        {
            let waiting = parent.state.isUnderway || (parent.state == .sent && parent.sentTweetID != nil)
            guard waiting else {
                let why =
                    parent.state == .sent
                    ? "went out without a known post id: this part cannot reply to it; cancel #\(item.id) and post it again"
                    : "is \(parent.state.rawValue): retry #\(parent.id) first"
                throw TwfeedError(.invalidData, "outbox: status #\(item.id) waits for part \(thread.part - 1) (#\(parent.id)), which \(why)")
            }
        }
        guard let updated = try await backInLine(item, from: [.blocked], to: .pending, changes: [], now: now) else {
            throw TwfeedError(.invalidData, "outbox: status #\(item.id) is no longer blocked")
        }
        return updated
    }

    /// One transaction: the status back in line (its age from `now`, no attempts, no
    /// error, and `changes`), and the blocked parts after it in its thread with it (they
    /// wait for it to be sent). Nil when it was not in `from`.
    private func backInLine(
        _ item: OutboxItem,
        from: [OutboxState],
        to state: OutboxState,
        changes: [OutboxChange],
        now: Date
    ) async throws -> OutboxItem? {
        try await write { db in
            guard
                let updated = try Self.transitionOutbox(
                    item.id,
                    from: from,
                    to: state,
                    changes: [.queuedAt(now), .attempts(0), .nextAttemptAt(nil), .lastError(nil)] + changes,
                    db
                )
            else { return nil }
            if let thread = updated.thread {
                try db.execute(
                    sql: """
                        UPDATE outbox SET state = 'pending', queuedAt = ?, attempts = 0, nextAttemptAt = NULL, lastError = NULL
                        WHERE threadId = ? AND threadPart > ? AND state = 'blocked'
                        """,
                    arguments: [now.timeIntervalSince1970, thread.id, thread.part]
                )
            }
            return updated
        }
    }

    /// `outbox cancel`: withdraws a pending status, or a failed or blocked one so it is
    /// not retried.
    package func cancelOutbox(_ id: Int64) async throws -> OutboxItem {
        guard let item = try await outboxItem(id) else { throw TwfeedError(.invalidData, "outbox: no status #\(id)") }
        guard let updated = try await transitionOutbox(id, from: [.pending, .failed, .blocked], to: .cancelled) else {
            throw TwfeedError(
                .invalidData,
                "outbox: status #\(id) is \(item.state.rawValue); only pending, failed or blocked statuses can be cancelled"
            )
        }
        return updated
    }
}

extension StoreReading {
    package func outboxItems() async throws -> [OutboxItem] {
        try await read { db in try AppDatabase.withPhotos(Row.fetchAll(db, sql: StoreQueries.outboxAll.sql).map(OutboxItem.init(row:)), db) }
    }

    /// The statuses in one state, oldest first, through the (state, id) index: the
    /// flusher's per-pass read, which must not grow with the sent history.
    package func outboxItems(state: OutboxState, limit: Int = Int.max) async throws -> [OutboxItem] {
        try await read { db in try AppDatabase.outboxItems(state: state, limit: limit, db) }
    }

    package func outboxItem(_ id: Int64) async throws -> OutboxItem? {
        try await read { db in try AppDatabase.outboxItem(id, db) }
    }

    /// The newest statuses first, from below `before` (nil: the newest): the reader's
    /// outbox page, which must not grow with the sent history.
    package func outboxItems(newestFirst limit: Int, before: Int64? = nil) async throws -> [OutboxItem] {
        try await read { db in
            try AppDatabase.withPhotos(
                Row.fetchAll(db, sql: StoreQueries.outboxNewest.sql, arguments: [before ?? Int64.max, limit]).map(OutboxItem.init(row:)),
                db
            )
        }
    }

    /// Counts by state (kept by triggers in outboxCount) and the age of the oldest
    /// status still to go.
    package func outboxCounts(now: Date) async throws -> ([OutboxState: Int], Double?) {
        try await read { db in try AppDatabase.outboxCounts(now: now, db) }
    }

    /// Whether a tweet is already recorded as the one an outbox status became, so two
    /// statuses with the same text cannot both settle on it.
    package func outboxClaims(_ tweetID: TweetID) async throws -> Bool {
        try await read { db in try AppDatabase.outboxClaims(tweetID, db) }
    }

    /// The largest tweet id stored, of any author and feed: every one was made by the
    /// server before twfeed read it, so a status posted after this read gets a larger id
    /// (ids are snowflakes, the server's clock). Nil in an empty database.
    package func newestKnownTweetID() async throws -> TweetID? {
        try await read { db in try Int64.fetchOne(db, sql: StoreQueries.newestTweetID.sql).map(TweetID.init) }
    }

}

extension AppDatabase {
    static func outboxItems(state: OutboxState, limit: Int, _ db: Database) throws -> [OutboxItem] {
        try withPhotos(Row.fetchAll(db, sql: StoreQueries.outboxInState.sql, arguments: [state.rawValue, limit]).map(OutboxItem.init(row:)), db)
    }

    static func outboxClaims(_ tweetID: TweetID, _ db: Database) throws -> Bool {
        try Int64.fetchOne(db, sql: StoreQueries.outboxSentTweet.sql, arguments: [tweetID.rawValue]) != nil
    }
}

extension AppDatabase {
    static func outboxCounts(now: Date, _ db: Database) throws -> ([OutboxState: Int], Double?) {
        var counts: [OutboxState: Int] = [:]
        for row in try Row.fetchAll(db, sql: StoreQueries.outboxCounts.sql) {
            // A state this version does not know (a newer twfeed's) is left out, as no status shows it.
            guard let state = OutboxState(rawValue: row["state"]) else { continue }
            counts[state] = row["statuses"]
        }
        let oldest = try Double.fetchOne(db, sql: StoreQueries.outboxOldestWaiting.sql)
        return (counts, oldest.map { now.timeIntervalSince1970 - $0 })
    }
}
