import Foundation
import Logging
import Testing
import TwfeedTesting
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

/// FTS5's automatic merging ran inside the COMMIT of whichever write tipped a level over
/// (a poller's page, a prune batch), holding the write lock for hundreds of milliseconds
/// on a large archive. It is off; `SearchIndexMerger` does the work in short steps.
struct SearchIndexMergerTests {
    static let author = Author(id: UserID(1), username: "alice", name: "Alice Martin")

    /// Thirty pages, as thirty polls write them: thirty index segments.
    func database() async throws -> AppDatabase {
        let database = try AppDatabase.inMemory()
        for page in 0 ..< 30 {
            let tweets = (0 ..< 5).map { index in
                let id = Int64(1_000 + page * 5 + index)
                return Tweet(id: TweetID(id), authorID: Self.author.id, createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(id)),
                             text: "page \(page) tweet \(index) coffee")
            }
            try await database.storePage(TimelinePage(tweets: tweets, authors: [Self.author], nextPageToken: nil),
                                   feed: .home, state: SyncState(feed: .home), now: Date())
        }
        return database
    }

    @Test func writesLeaveMergingToTheMerger() async throws {
        let database = try await database()
        let automerge = try database.inspect { db in
            try ["tweetSearch", "userSearch"].map { try Int.fetchOne(db, sql: "SELECT v FROM \($0)_config WHERE k = 'automerge'") }
        }
        #expect(automerge == [0, 0])
    }

    @Test func theMergerMergesInStepsUntilNothingIsLeftAndSearchStillFindsEverything() async throws {
        let database = try await database()
        let query = try SearchQuery(parsing: "coffee")
        let before = try await database.search(query, feed: nil, limit: 500).map(\.tweet.id)
        #expect(before.count == 150)

        let sink = MemorySink()
        let logger = Logger(label: "t") { _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
        let merger = SearchIndexMerger(database: database, clock: ManualClock(), pages: 4, logger: logger)
        let first = try await merger.mergeAll()
        #expect(first.steps > 0)
        #expect(sink.events("search.merged").count == 1)
        // Nothing left: a second round merges nothing and logs nothing.
        #expect(try await merger.mergeAll().steps == 0)
        #expect(sink.events("search.merged").count == 1)
        #expect(try await database.search(query, feed: nil, limit: 500).map(\.tweet.id) == before)
    }
}
