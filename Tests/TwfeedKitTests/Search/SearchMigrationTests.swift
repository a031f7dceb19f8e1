import Foundation
import GRDB
import Logging
import Testing
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

struct SearchMigrationTests {
    static let identifier = "v5: full-text search"

    /// A database as the twfeed before search left it: every migration up to v5's
    /// predecessor, with tweets and users in it.
    static func olderDatabase(at path: String, tweets: Int) throws {
        let index = try #require(AppDatabase.migrations.firstIndex { $0.identifier == identifier })
        let queue = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(queue, upTo: AppDatabase.migrations[index - 1].identifier)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO user (id, username, name, updatedAt) VALUES (1, 'zoe', 'Zoé Durand', 0), (2, 'max', 'Max', 0)")
            let tweet = try db.makeStatement(sql: "INSERT INTO tweet (id, authorId, createdAt, text, raw, fetchedAt) VALUES (?, ?, ?, ?, '{}', 0)")
            let member = try db.makeStatement(sql: "INSERT INTO feedMembership (feed, tweetId, addedAt) VALUES ('home', ?, 0)")
            for id in 1...tweets {
                try tweet.execute(arguments: [id, id % 2 + 1, Double(id), id % 1000 == 0 ? "a rare élan \(id)" : "tweet number \(id)"])
                try member.execute(arguments: [id])
            }
        }
    }

    @Test func anExistingDatabaseIsIndexedInBatchesAndLogsItsProgress() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-search-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = "\(folder)/twfeed.sqlite"
        let tweets = AppDatabase.searchIndexBatch * 2 + 10
        try Self.olderDatabase(at: path, tweets: tweets)

        let sink = MemorySink()
        let logger = Logger(label: "test") { _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
        let database = try AppDatabase.open(path: path, logger: logger)

        let progress = sink.events("search.index").filter { $0.contains("table=tweet") }
        #expect(progress.count == 3)
        #expect(progress.map { $0.contains(" done=\(tweets) ") && $0.contains(" total=\(tweets)") } == [false, false, true])
        #expect(sink.events("search.index").first?.contains("done=2 table=user total=2") == true, "users first")
        let found = try await database.search(SearchQuery(parsing: "ELAN"), feed: .home, limit: 3).map(\.tweet.id.rawValue)
        #expect(found == [100_000, 99_000, 98_000])
        #expect(try await database.search(SearchQuery(parsing: "zoe rare"), feed: nil, limit: 500).count == tweets / 1000, "every rare tweet is by Zoé (even ids)")
        _ = try database.tamper { db in
            try db.execute(sql: "INSERT INTO tweetSearch(tweetSearch, rank) VALUES ('integrity-check', 1)")
        }
    }

    @Test func aNewDatabaseLogsNoProgress() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-search-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sink = MemorySink()
        let logger = Logger(label: "test") { _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
        _ = try AppDatabase.open(path: "\(folder)/twfeed.sqlite", logger: logger)
        #expect(sink.events("search.index").isEmpty)
    }
}
