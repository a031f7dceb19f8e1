import Foundation
import GRDB
import TwfeedBilling
import TwfeedCore

extension AppDatabase {
    /// Stores one page and records what it cost in one transaction (see `storePage`):
    /// a crash either keeps both or neither, so a page is never paid twice nor lost.
    @discardableResult
    package func storePage(
        _ page: TimelinePage,
        feed: Feed,
        state: SyncState,
        now: Date,
        bill: BillableAnswer,
        prices: Prices
    ) async throws -> Int {
        try await write { db in
            let added = try Self.storePage(page, feed: feed, state: state, now: now, db)
            _ = try Self.recordSpend(bill, prices: prices, now: now, db)
            return added
        }
    }

    /// Records an answer that stored nothing of its own (the who-am-I call, the
    /// settlement's read, a post): what it charged, deduplicated against today's.
    @discardableResult
    package func recordSpend(_ bill: BillableAnswer, prices: Prices, now: Date) async throws -> ResourceCount {
        try await write { db in try Self.recordSpend(bill, prices: prices, now: now, db) }
    }

    /// Charges `bill` on the UTC day of `now`, as the API does: each post or user read
    /// not yet charged today (whichever source, endpoint or price read it first:
    /// `BillableKind.dedupKey`), at the price of its kind here, and every post created.
    /// Adds the counts and their cost at `prices` to the day's row for the source and
    /// kind, and the reads that were free as repeats. Drops the deduplication rows of
    /// earlier days first (a range of the primary key, empty except on the first charge
    /// of a day).
    ///
    /// - Returns: what was charged (fewer reads than `bill.resources` when some were
    ///   charged earlier today).
    static func recordSpend(_ bill: BillableAnswer, prices: Prices, now: Date, _ db: Database) throws -> ResourceCount {
        guard !bill.isEmpty else { return .zero }
        let day = BillingCycle.utcDay(of: now)
        try db.execute(sql: "DELETE FROM billedResource WHERE day < ?", arguments: [day])
        var charged = ResourceCount.zero
        var repeats = ResourceCount.zero
        for (kind, count) in bill.repeatsInAnswer { repeats[kind] += count }
        let seen = try db.cachedStatement(sql: "INSERT OR IGNORE INTO billedResource (day, resource, id) VALUES (?, ?, ?)")
        for kind in bill.readOrder {
            guard let resource = kind.dedupKey else { continue }
            for id in bill.reads[kind] ?? [] {
                try seen.execute(arguments: [day, resource, id])
                if db.changesCount > 0 { charged[kind] += 1 } else { repeats[kind] += 1 }
            }
        }
        for kind in bill.created { charged[kind] += 1 }
        let add = try db.cachedStatement(
            sql: """
                INSERT INTO spend (day, source, kind, resources, micros, repeats) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (day, source, kind) DO UPDATE SET resources = resources + excluded.resources,
                    micros = micros + excluded.micros, repeats = repeats + excluded.repeats
                """
        )
        for kind in BillableKind.allCases where charged[kind] > 0 || repeats[kind] > 0 {
            let cost = prices.price(of: kind) * charged[kind]
            try add.execute(arguments: [day, bill.source.rawValue, kind.rawValue, charged[kind], cost.micros, repeats[kind]])
        }
        return charged
    }
}

/// One row of the ledger: what one source spent on one kind of resource on one UTC day.
package struct SpendRow: Sendable, Equatable {
    /// `YYYY-MM-DD`, UTC.
    package var day: String
    package var source: BillingSource
    package var kind: BillableKind
    package var resources: Int
    package var cost: MicroUSD
    /// Resources of this kind the source got back that were already charged that day
    /// (by any source, at any price): free.
    package var repeats: Int

    package init(day: String, source: BillingSource, kind: BillableKind, resources: Int, cost: MicroUSD, repeats: Int = 0) {
        self.day = day
        self.source = source
        self.kind = kind
        self.resources = resources
        self.cost = cost
        self.repeats = repeats
    }
}

extension StoreReading {
    /// The ledger's rows from `firstDay` (`YYYY-MM-DD`) on, newest day first.
    package func spend(since firstDay: String) async throws -> [SpendRow] {
        try await read { db in try AppDatabase.spend(since: firstDay, db) }
    }

    /// Spent from `firstDay` (included) to `endDay` (excluded): a cycle, or one day.
    package func spent(from firstDay: String, before endDay: String) async throws -> MicroUSD {
        try await read { db in try AppDatabase.spent(from: firstDay, before: endDay, db) }
    }

    /// Everything ever spent, per source and kind (what the metrics' counters say).
    package func spendTotals() async throws -> [SpendRow] {
        try await read { db in try AppDatabase.spendTotals(db) }
    }
}

extension AppDatabase {
    static func spent(from firstDay: String, before endDay: String, _ db: Database) throws -> MicroUSD {
        MicroUSD(micros: try Int64.fetchOne(db, sql: StoreQueries.spendBetween.sql, arguments: [firstDay, endDay]) ?? 0)
    }

    static func spendTotals(_ db: Database) throws -> [SpendRow] {
        try Row.fetchAll(db, sql: StoreQueries.spendTotals.sql).compactMap { row in spendRow(row, day: "") }
    }
}

extension AppDatabase {
    static func spend(since firstDay: String, _ db: Database) throws -> [SpendRow] {
        try Row.fetchAll(db, sql: StoreQueries.spendSince.sql, arguments: [firstDay]).compactMap { row in
            spendRow(row, day: row["day"])
        }
    }

    /// A row whose source or kind this build does not know (written by a newer one) is
    /// left out rather than misfiled.
    static func spendRow(_ row: Row, day: String) -> SpendRow? {
        guard let source = BillingSource(rawValue: row["source"]), let kind = BillableKind(rawValue: row["kind"]) else {
            return nil
        }
        return SpendRow(
            day: day,
            source: source,
            kind: kind,
            resources: row["resources"],
            cost: MicroUSD(micros: row["micros"]),
            repeats: row["repeats"] ?? 0
        )
    }
}

extension AppDatabase {
    /// Saves the account the who-am-I call named, and its user (name, picture) when
    /// given, and records that call's charge in the same transaction.
    package func saveAccount(_ account: Account, user: Author? = nil, bill: BillableAnswer, prices: Prices, now: Date) async throws {
        try await write { db in
            try Self.saveAccount(account, db)
            // A page of no posts stores just the user (no feed holds anything new).
            if let user { _ = try Self.insert(TimelinePage(tweets: [], authors: [user], nextPageToken: nil), feed: .home, now: now, db) }
            _ = try Self.recordSpend(bill, prices: prices, now: now, db)
        }
    }
}

extension AppDatabase {
    /// Moves an outbox item and records what the API charged for it in one transaction
    /// (a status marked sent pays for its post).
    @discardableResult
    package func transitionOutbox(
        _ id: Int64,
        from: [OutboxState],
        to state: OutboxState,
        changes: [OutboxChange] = [],
        bill: BillableAnswer,
        prices: Prices,
        now: Date
    ) async throws -> OutboxItem? {
        try await write { db in
            let moved = try Self.transitionOutbox(id, from: from, to: state, changes: changes, db)
            if moved != nil { _ = try Self.recordSpend(bill, prices: prices, now: now, db) }
            return moved
        }
    }
}

extension StoreReading {
    /// Whether a post replying to `tweetID` is a summoned reply: the post is in the
    /// account's mentions (it mentions the account, or replies to or quotes one of its
    /// posts, which the API lists as mentions too).
    package func summons(_ tweetID: TweetID?) async throws -> Bool {
        guard let tweetID else { return false }
        return try await !knownIDs([tweetID], feed: .mentions).isEmpty
    }
}
