import Foundation
import GRDB
import Testing
@testable import TwfeedStore

/// Every read the store runs (`StoreQueries.all`) must cost O(limit) or O(log n): no
/// full SCAN of a table that grows with the archive, no temp B-tree sorting for ORDER
/// BY, unless the query says why (it lists everything by design).
struct QueryPlanTests {
    /// Tables that stay a handful of rows however big the archive grows.
    static let smallTables: Set<String> = ["account", "syncState", "feedCount", "outboxCount"]

    /// What is wrong with a plan: each SCAN of a table not small and not allowed, each
    /// temp B-tree not allowed. A scan of a subquery's result (`(subquery-1)`) or of a
    /// SELECT with no FROM (`CONSTANT ROW`) is fine.
    static func problems(_ plan: [String], allowance: StoreQuery.Allowance?) -> [String] {
        plan.compactMap { detail in
            if detail.hasPrefix("SCAN ") {
                let target = detail.dropFirst(5).split(separator: " ").first.map(String.init) ?? ""
                if target.hasPrefix("(") || target == "CONSTANT" || smallTables.contains(target) || allowance?.scans.contains(target) == true { return nil }
                // An FTS5 table answers MATCH from its own index: its plan reads
                // "SCAN t VIRTUAL TABLE INDEX n:M…", where the M says the MATCH is used.
                // Without a MATCH ("INDEX 0:" with no M) it would read every row.
                if let index = detail.range(of: "VIRTUAL TABLE INDEX "),
                   detail[index.upperBound...].split(separator: ":").dropFirst().first?.contains("M") == true { return nil }
                return detail
            }
            if detail.contains("TEMP B-TREE"), allowance?.sorts != true { return detail }
            return nil
        }
    }

    static func plan(_ sql: String, in database: AppDatabase) throws -> [String] {
        try database.inspect { db in
            // Parameters stay unbound (NULL): the plan does not depend on them.
            let statement = try db.makeStatement(sql: "EXPLAIN QUERY PLAN " + sql)
            statement.setUncheckedArguments(StatementArguments())
            return try Row.fetchAll(statement).map { $0["detail"] as String }
        }
    }

    @Test func everyReaderQuerySearchesAnIndexAndNeverSortsTheArchive() async throws {
        let database = try await PopulatedStore.make()
        #expect(StoreQueries.all.count == Set(StoreQueries.all.map(\.name)).count)
        for query in StoreQueries.all {
            let plan = try Self.plan(query.sql, in: database)
            #expect(Self.problems(plan, allowance: query.allowance).isEmpty, "\(query.name): \(plan)")
        }
    }

    /// An allowance must still be needed, or it would hide a regression later.
    @Test func everyAllowanceIsStillNeeded() async throws {
        let database = try await PopulatedStore.make()
        for query in StoreQueries.all where query.allowance != nil {
            let plan = try Self.plan(query.sql, in: database)
            #expect(!Self.problems(plan, allowance: nil).isEmpty, "\(query.name) no longer needs its allowance: \(plan)")
        }
    }

    /// The checker catches the feed query twfeed shipped before v4 (ordered by the
    /// tweet's id, so SQLite sorted every joined row before LIMIT; here with v7's
    /// account), and a scan.
    @Test func theCheckerFlagsTheOldFeedQueryAndAScan() async throws {
        let database = try await PopulatedStore.make()
        let old = """
            SELECT t.*, u.username, u.name, u.profileImageURL, p.file AS avatarFile,
                (SELECT group_concat(m2.feed) FROM feedMembership m2 WHERE m2.tweetId = t.id) AS feeds
            FROM feedMembership m JOIN tweet t ON t.id = m.tweetId
            LEFT JOIN user u ON u.id = t.authorId LEFT JOIN profileImage p ON p.authorId = t.authorId
            WHERE m.account = ? AND m.feed = ? ORDER BY t.id DESC LIMIT ?
            """
        #expect(Self.problems(try Self.plan(old, in: database), allowance: nil) == ["USE TEMP B-TREE FOR ORDER BY"])
        let scan = try Self.plan("SELECT * FROM tweet WHERE text LIKE ?", in: database)
        #expect(Self.problems(scan, allowance: nil) == ["SCAN tweet"])
        #expect(Self.problems(scan, allowance: .init(scans: ["tweet"], sorts: false, why: "test")).isEmpty)
        // The full-text table passes only when MATCH drives it; reading it whole is a scan.
        let wholeIndex = try Self.plan("SELECT rowid FROM tweetSearch ORDER BY rowid DESC LIMIT 5", in: database)
        #expect(Self.problems(wholeIndex, allowance: nil).count == 1)
        let matched = try Self.plan(AppDatabase.searchSQL, in: database)
        #expect(Self.problems(matched, allowance: nil).isEmpty)
    }
}
