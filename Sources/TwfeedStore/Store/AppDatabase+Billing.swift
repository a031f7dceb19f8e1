import Foundation
import GRDB
import TwfeedBilling
import TwfeedCore

// The billing state, the endpoints the API refuses, and the gaps (v12).

extension StoreReading {
    /// The stored billing status; nil before the API ever refused anything.
    package func billingStatus() async throws -> BillingStatus? {
        try await read { db in try AppDatabase.billingStatus(db) }
    }

    /// Every endpoint the API refuses to this account, by source.
    package func endpointRefusals() async throws -> [EndpointRefusal] {
        try await read { db in try AppDatabase.endpointRefusals(db) }
    }

    /// The signed-in account's gaps in `feed` (every feed when nil), newest first.
    package func gaps(_ feed: Feed? = nil) async throws -> [FeedGap] {
        try await read { db in try AppDatabase.gaps(feed, db) }
    }

    /// How many gaps each feed of the signed-in account has (feeds without any absent).
    package func gapCounts() async throws -> [Feed: Int] {
        try await read { db in try AppDatabase.gapCounts(db) }
    }

    package func fillRequest(_ feed: Feed) async throws -> MicroUSD? {
        try await read { db in
            try Int64.fetchOne(db, sql: StoreQueries.fillRequest.sql, arguments: [feed.rawValue]).map(MicroUSD.init(micros:))
        }
    }
}

extension AppDatabase {
    static func gapCounts(_ db: Database) throws -> [Feed: Int] {
        let owner = try owner(.signedIn, db)
        var counts: [Feed: Int] = [:]
        for row in try Row.fetchAll(db, sql: StoreQueries.gapCounts.sql, arguments: [owner]) {
            if let feed = Feed(rawValue: row[0]) { counts[feed] = row[1] }
        }
        return counts
    }

    static func billingStatus(_ db: Database) throws -> BillingStatus? {
        guard let row = try Row.fetchOne(db, sql: StoreQueries.billingState.sql),
            let state = BillingState(rawValue: row["state"]),
            let since = SyncState.time(row["since"])
        else { return nil }
        return BillingStatus(
            state: state,
            since: since,
            until: SyncState.time(row["until"]),
            detail: row["detail"],
            lastProbe: SyncState.time(row["lastProbe"])
        )
    }

    static func endpointRefusals(_ db: Database) throws -> [EndpointRefusal] {
        try Row.fetchAll(db, sql: StoreQueries.endpointRefusals.sql).compactMap { row in
            // A row a newer version wrote with words this one does not know is left out.
            guard let source = BillingSource(rawValue: row["source"]),
                let reason = NotPermittedReason(rawValue: row["reason"]),
                let since = SyncState.time(row["since"]),
                let recheckAt = SyncState.time(row["recheckAt"])
            else { return nil }
            return EndpointRefusal(source: source, reason: reason, detail: row["detail"], since: since, recheckAt: recheckAt)
        }
    }

    static func gaps(_ feed: Feed?, _ db: Database) throws -> [FeedGap] {
        let owner = try owner(.signedIn, db)
        let rows: [Row]
        if let feed {
            rows = try Row.fetchAll(db, sql: StoreQueries.gapsInFeed.sql, arguments: [owner, feed.rawValue])
        } else {
            rows = try Row.fetchAll(db, sql: StoreQueries.gapsAll.sql, arguments: [owner])
        }
        return rows.compactMap { row in
            guard let feed = Feed(rawValue: row["feed"]), let reason = FeedGap.Reason(rawValue: row["reason"]),
                let recordedAt = SyncState.time(row["recordedAt"])
            else { return nil }
            return FeedGap(
                id: row["id"],
                feed: feed,
                newerThanID: TweetID(row["newerThanId"] as Int64),
                olderThanID: TweetID(row["olderThanId"] as Int64),
                reason: reason,
                recordedAt: recordedAt
            )
        }
    }
}

extension AppDatabase {
    /// Keeps the billing status (one row, replaced).
    package func saveBillingStatus(_ status: BillingStatus) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO billingState (id, state, since, until, detail, lastProbe)
                    VALUES (1, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    status.state.rawValue, status.since.timeIntervalSince1970, status.until?.timeIntervalSince1970,
                    status.detail, status.lastProbe?.timeIntervalSince1970,
                ]
            )
        }
    }

    package func saveEndpointRefusal(_ refusal: EndpointRefusal) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO endpointRefusal (source, reason, detail, since, recheckAt)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    refusal.source.rawValue, refusal.reason.rawValue, refusal.detail, refusal.since.timeIntervalSince1970,
                    refusal.recheckAt.timeIntervalSince1970,
                ]
            )
        }
    }

    /// The endpoint answered: it is permitted again. Returns whether it was refused.
    @discardableResult
    package func clearEndpointRefusal(_ source: BillingSource) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM endpointRefusal WHERE source = ?", arguments: [source.rawValue])
            return db.changesCount > 0
        }
    }

    /// A reload: every refused endpoint is asked again at `now` (the user may have
    /// changed the developer console; the config's reload is how they say so).
    package func recheckEndpointRefusals(at now: Date) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE endpointRefusal SET recheckAt = ?", arguments: [now.timeIntervalSince1970])
            // A refused feed sleeps until its recheck: wake it with the rest.
            try db.execute(
                sql: "UPDATE syncState SET nextPollAt = ? WHERE feed IN (SELECT source FROM endpointRefusal) AND nextPollAt > ?",
                arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970]
            )
        }
    }

    /// `twfeed fill FEED --max-usd X`: replaces any earlier request for the feed.
    package func requestFill(_ feed: Feed, maxSpend: MicroUSD, now: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO fillRequest (feed, maxMicros, requestedAt) VALUES (?, ?, ?)",
                arguments: [feed.rawValue, maxSpend.micros, now.timeIntervalSince1970]
            )
        }
    }

    /// The request is done (or no daemon was there to take it): it goes.
    package func dropFillRequest(_ feed: Feed) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM fillRequest WHERE feed = ?", arguments: [feed.rawValue]) }
    }
}

extension AppDatabase {
    /// A poll stopped by the budget below the newest part of its range: records the
    /// rest as a gap and saves the feed's state (its range now closed) in one
    /// transaction, so a crash never leaves a closed range without its gap.
    package func recordGap(_ gap: FeedGap, closing state: SyncState) async throws -> FeedGap {
        try await write { db in
            try state.save(db)
            let owner = try Self.owner(state.account, db)
            try db.execute(
                sql: """
                    INSERT INTO gap (account, feed, newerThanId, olderThanId, reason, recordedAt)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    owner, gap.feed.rawValue, gap.newerThanID.rawValue, gap.olderThanID.rawValue, gap.reason.rawValue,
                    gap.recordedAt.timeIntervalSince1970,
                ]
            )
            var stored = gap
            stored.id = db.lastInsertedRowID
            return stored
        }
    }

    /// Stores a page read inside a gap (`twfeed fill`): its posts join the feed, the
    /// gap shrinks to what lies below the page (or goes when `olderThanID` is nil), and
    /// the charge is recorded, in one transaction. Returns the posts added and what the
    /// page cost.
    package func storeGapPage(
        _ page: TimelinePage,
        feed: Feed,
        gap: FeedGap,
        olderThanID: TweetID?,
        bill: BillableAnswer,
        prices: Prices,
        now: Date
    ) async throws -> (added: Int, cost: MicroUSD) {
        try await write { db in
            let added = try Self.insert(page, feed: feed, account: try Self.owner(.signedIn, db), now: now, db)
            let charged = try Self.recordSpend(bill, prices: prices, now: now, db)
            if let olderThanID {
                try db.execute(sql: "UPDATE gap SET olderThanId = ? WHERE id = ?", arguments: [olderThanID.rawValue, gap.id])
            } else {
                try db.execute(sql: "DELETE FROM gap WHERE id = ?", arguments: [gap.id])
            }
            return (added, charged.cost(at: prices))
        }
    }
}
