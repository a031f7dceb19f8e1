import Foundation
import GRDB
import Logging
import Testing
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

struct PrunerServiceTests {
    @Test func prunesAtStartAndAgainAfterAnHourOfTheClock() async throws {
        let fixture = try RetentionFixture()
        defer { fixture.remove() }
        // 2 is 30 minutes younger than the limit at start, older than it an hour later.
        try await fixture.store([fixture.tweet(1, daysAgo: 31), fixture.tweet(2, daysAgo: 30 - 0.5 / 24), fixture.tweet(3, daysAgo: 1)])
        let pruner = fixture.pruner(keepDays: 30)
        let task = Task { try await pruner.run() }
        defer { task.cancel() }

        await fixture.clock.waitForSleepers(1)
        #expect(try fixture.tweetIDs() == [2, 3])
        #expect(fixture.sink.events("prune.done").count == 1)
        #expect(fixture.clock.nextDeadline == fixture.clock.now().addingTimeInterval(3600))

        fixture.clock.advance(by: 3600)
        await fixture.clock.waitForSleepers(1)
        #expect(try fixture.tweetIDs() == [3])
        #expect(fixture.sink.events("prune.done").count == 2)
    }

    @Test func keepDaysZeroOnlySleeps() async throws {
        let fixture = try RetentionFixture()
        defer { fixture.remove() }
        try await fixture.store([fixture.tweet(1, daysAgo: 4000)])
        let task = Task { try await fixture.pruner(keepDays: 0).run() }
        defer { task.cancel() }
        await fixture.clock.waitForSleepers(1)
        fixture.clock.advance(by: 3600)
        await fixture.clock.waitForSleepers(1)
        #expect(try fixture.tweetIDs() == [1])
        #expect(fixture.sink.lines.isEmpty)
    }

    @Test func theFileShrinksAfterPruningMostOfIt() async throws {
        let fixture = try RetentionFixture(onDisk: true)
        defer { fixture.remove() }
        #expect(try await fixture.database.hasIncrementalVacuum())
        let filler = String(repeating: "long tweet text ", count: 100)
        for chunk in stride(from: 1, through: 4000, by: 500) {
            try await fixture.store((chunk ..< chunk + 500).map {
                fixture.tweet(Int64($0), daysAgo: $0 <= 3600 ? 90 : 1, author: Int64($0 % 50), text: "\($0) \(filler)")
            })
        }
        try await fixture.database.checkpoint()
        let before = try fileSize(fixture.path)

        let report = try await fixture.pruner(keepDays: 30).prune()

        #expect(report.deletedTweets == 3600)
        #expect(report.vacuumedPages > 0)
        let after = try fileSize(fixture.path)
        #expect(after * 4 < before, "the file went from \(before) to \(after) bytes")
        let vacuum = try #require(fixture.sink.events("prune.vacuum").first)
        #expect(vacuum.contains("pages=\(report.vacuumedPages)"))
        #expect(try fixture.database.inspect { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test func aDatabaseFromBeforeRetentionIsConvertedOnceAtStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-convert-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/twfeed.sqlite"
        // What an older twfeed made: WAL, no auto-vacuum.
        do {
            let early = try DatabaseQueue(path: path)
            try early.inDatabase { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "CREATE TABLE early (x)")
            }
        }
        let database = try AppDatabase.open(path: path)
        #expect(try await !database.hasIncrementalVacuum())
        let fixture = try RetentionFixture()
        defer { fixture.remove() }
        let pruner = Pruner(database: database, clock: fixture.clock, keepDays: 30, logger: fixture.logger)
        let task = Task { try await pruner.run() }
        defer { task.cancel() }
        await fixture.clock.waitForSleepers(1)

        #expect(try await database.hasIncrementalVacuum())
        #expect(fixture.sink.events("prune.converted").count == 1)
        fixture.clock.advance(by: 3600)
        await fixture.clock.waitForSleepers(1)
        #expect(fixture.sink.events("prune.converted").count == 1)
        #expect(fixture.sink.events("prune.done").count == 2)
    }

    @Test func theDaemonRunsAPrunerOnlyWhenKeepDaysIsSet() throws {
        var config = TwfeedConfig(environment: ["HOME": "/nonexistent"])
        config.images.enabled = false
        let credentials = Credentials(consumerKey: "ck", consumerSecret: "cs", accessToken: "at", accessTokenSecret: "as")
        func pruners() throws -> [Pruner] {
            try Daemon.build(config: config, credentials: credentials, database: try AppDatabase.inMemory(),
                             logger: Logger(label: "t") { _ in SwiftLogNoOpLogHandler() })
                .services.compactMap { $0 as? Pruner }
        }
        #expect(try pruners().isEmpty)
        config.storage.keepDays = 365
        #expect(try pruners().map(\.keepDays) == [365])
    }

    func fileSize(_ path: String) throws -> Int64 {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
    }
}
