import Foundation
import GRDB
import Testing
@testable import TwfeedCore
@testable import TwfeedStore

/// The search reads cost O(limit): FTS5 walks its index in rowid order and the feed
/// filter probes a primary key; nothing scans a table or sorts the results whole.
struct SearchPlanTests {
    @Test func searchQueriesNeitherScanNorSort() async throws {
        let database = try AppDatabase.inMemory()
        let authors = (1...50).map { Author(id: UserID($0), username: "user\($0)", name: "User \($0)") }
        let tweets = (1...2000).map { Tweet(id: TweetID(Int64($0)), authorID: UserID(Int64($0 % 50 + 1)), createdAt: Date(), text: "coffee \($0)") }
        try await database.storePage(TimelinePage(tweets: tweets, authors: authors, nextPageToken: nil), feed: .home, state: SyncState(feed: .home), now: Date())
        let queries: [(sql: String, arguments: StatementArguments)] = [
            (AppDatabase.searchSQL, ["match": "\"coffee\"", "limit": 50]),
            (AppDatabase.searchInFeedSQL, ["match": "\"coffee\"", "account": 0, "feed": "home", "limit": 50]),
            (AppDatabase.usersMatchingSQL, ["\"coffee\""]),
            (AppDatabase.usersNamedSQL, ["alice"]),
        ]
        for (sql, arguments) in queries {
            let plan = try database.tamper { db in
                try db.execute(sql: "ANALYZE")
                return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: arguments).map { $0["detail"] as String }
            }
            try check(sql, plan)
        }
    }

    func check(_ sql: String, _ plan: [String]) throws {
        #expect(!plan.isEmpty)
        for step in plan {
            #expect(!step.contains("TEMP B-TREE"), "\(sql): \(step)")
            #expect(!step.hasPrefix("SCAN") || step.contains("VIRTUAL TABLE"), "\(sql): \(step)")
        }
        if sql.contains("tweetSearch") {
            // The FTS walk comes first and feeds the join in its own (rowid) order.
            #expect(plan.first?.hasPrefix("SCAN tweetSearch VIRTUAL TABLE") == true, "\(plan)")
        }
    }
}
