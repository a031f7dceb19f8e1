import Foundation
import GRDB
import Testing
import TwfeedBilling
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore
@testable import TwfeedStatus
import TwfeedTesting

/// The ledger (v11, v17): what the API charged per UTC day, source and kind, deduplicated
/// as the API does (a post or user once per UTC day, whichever endpoint returns it, at the
/// price of the day's first read), recorded in the same transaction as the page it paid for.
struct LedgerTests: LedgerFixture {
    func rows(_ database: AppDatabase) async throws -> [String: SpendRow] {
        Dictionary(uniqueKeysWithValues: try await database.spend(since: "2000-01-01").map { ("\($0.day) \($0.source.rawValue) \($0.kind.rawValue)", $0) })
    }

    @Test func aPageIsChargedPerPostAndUserAtThePublishedRates() async throws {
        let database = try AppDatabase.inMemory()
        try await store(database, page([3, 2, 1], referenced: [9], authors: [Self.author, Self.other]))
        let rows = try await rows(database)
        #expect(rows["2026-11-18 home post_read"]?.resources == 4)
        #expect(rows["2026-11-18 home post_read"]?.cost == MicroUSD(micros: 20_000))
        #expect(rows["2026-11-18 home user_read"]?.resources == 2)
        #expect(rows["2026-11-18 home user_read"]?.cost == MicroUSD(micros: 20_000))
        #expect(rows.count == 2)
        #expect(try await database.spent(from: "2026-11-18", before: "2026-11-19") == MicroUSD(micros: 40_000))
    }

    @Test func theSamePostOrUserTheSameUTCDayIsFreeAndTheNextDayIsChargedAgain() async throws {
        let database = try AppDatabase.inMemory()
        try await store(database, page([2, 1]))
        try await store(database, page([3, 2, 1]), now: Self.noon.addingTimeInterval(3600))
        var rows = try await rows(database)
        #expect(rows["2026-11-18 home post_read"]?.resources == 3)
        #expect(rows["2026-11-18 home user_read"]?.resources == 1)

        #expect(rows["2026-11-18 home post_read"]?.repeats == 2, "2 and 1 came back")
        #expect(rows["2026-11-18 home user_read"]?.repeats == 1)

        // Another feed the same day: the same post is free, whichever endpoint returns it.
        try await store(database, page([3]), .retweets, now: Self.noon.addingTimeInterval(7200))
        rows = try await self.rows(database)
        #expect(rows["2026-11-18 retweets post_read"]?.resources == 0)
        #expect(rows["2026-11-18 retweets post_read"]?.repeats == 1)

        // Past midnight UTC: everything is charged again, and yesterday's dedup rows go.
        let tomorrow = BillingCycle.endOfUTCDay(Self.noon).addingTimeInterval(60)
        try await store(database, page([3, 2, 1]), now: tomorrow)
        rows = try await self.rows(database)
        #expect(rows["2026-11-19 home post_read"]?.resources == 3)
        #expect(rows["2026-11-19 home user_read"]?.resources == 1)
        let days = try database.inspect { db in try String.fetchAll(db, sql: "SELECT DISTINCT day FROM billedResource") }
        #expect(days == ["2026-11-19"])
    }

    /// X's pricing page: deduplication is "per resource, across queries". A post read in
    /// home ($0.005) and then as an owned read in the account's mentions ($0.001) is one
    /// resource, charged once at the first read's price; read first as an owned read, it
    /// costs $0.001 once. The next UTC day it is charged again.
    @Test func aPostIsChargedOnceADayAtThePriceOfItsFirstRead() async throws {
        let database = try AppDatabase.inMemory()
        try await store(database, page([10], authors: []))
        try await store(database, page([10], authors: []), .mentions, now: Self.noon.addingTimeInterval(60))
        var rows = try await rows(database)
        #expect(rows["2026-11-18 home post_read"]?.cost == MicroUSD(micros: 5_000))
        #expect(rows["2026-11-18 mentions owned_read"]?.resources == 0)
        #expect(rows["2026-11-18 mentions owned_read"]?.repeats == 1)
        #expect(try await database.spent(from: "2026-11-18", before: "2026-11-19") == MicroUSD(micros: 5_000))

        // Owned first: $0.001 once, and home's read of it after is free.
        try await store(database, page([11], authors: []), .mentions, now: Self.noon.addingTimeInterval(120))
        try await store(database, page([11], authors: []), now: Self.noon.addingTimeInterval(180))
        rows = try await self.rows(database)
        #expect(rows["2026-11-18 mentions owned_read"]?.cost == MicroUSD(micros: 1_000))
        #expect(rows["2026-11-18 home post_read"]?.resources == 1)
        #expect(rows["2026-11-18 home post_read"]?.repeats == 1)
        #expect(try await database.spent(from: "2026-11-18", before: "2026-11-19") == MicroUSD(micros: 6_000))

        // In one answer, the answer's own post comes before what it includes: a mention
        // that is also another mention's parent is an owned read, once.
        try await store(database, page([12], referenced: [12], authors: []), .mentions, now: Self.noon.addingTimeInterval(200))
        rows = try await self.rows(database)
        #expect(rows["2026-11-18 mentions owned_read"]?.resources == 2)
        #expect(rows["2026-11-18 mentions post_read"]?.resources ?? 0 == 0)

        // The next UTC day: charged again, at that day's first read's price.
        let tomorrow = BillingCycle.endOfUTCDay(Self.noon).addingTimeInterval(60)
        try await store(database, page([10], authors: []), .mentions, now: tomorrow)
        try await store(database, page([10], authors: []), now: tomorrow.addingTimeInterval(60))
        rows = try await self.rows(database)
        #expect(rows["2026-11-19 mentions owned_read"]?.cost == MicroUSD(micros: 1_000))
        #expect(rows["2026-11-19 home post_read"]?.resources == 0)
        #expect(try await database.spent(from: "2026-11-19", before: "2026-11-20") == MicroUSD(micros: 1_000))
    }

    /// A user is one resource too: the who-am-I call's user read and the same user as an
    /// author in a page are charged once a day.
    @Test func aUserIsChargedOnceADayWhoeverReadsIt() async throws {
        let database = try AppDatabase.inMemory()
        var me = BillableAnswer(source: .account)
        me.read(.userRead, [7])
        try await database.recordSpend(me, prices: Prices(), now: Self.noon)
        try await store(database, page([20]), now: Self.noon.addingTimeInterval(60))
        var rows = try await rows(database)
        #expect(rows["2026-11-18 account user_read"]?.cost == MicroUSD(micros: 10_000))
        #expect(rows["2026-11-18 home user_read"]?.resources == 0)
        #expect(rows["2026-11-18 home user_read"]?.repeats == 1)

        let tomorrow = BillingCycle.endOfUTCDay(Self.noon).addingTimeInterval(60)
        try await store(database, page([20]), now: tomorrow)
        try await database.recordSpend(me, prices: Prices(), now: tomorrow.addingTimeInterval(60))
        rows = try await self.rows(database)
        #expect(rows["2026-11-19 home user_read"]?.cost == MicroUSD(micros: 10_000))
        #expect(rows["2026-11-19 account user_read"]?.resources == 0)
        #expect(rows["2026-11-19 account user_read"]?.repeats == 1)
    }

    /// v17 carries today's charged resources over under their resource: a post charged
    /// under both kinds by v11 stays one row, still free today; the spend rows keep their
    /// counts and gain no repeats.
    @Test func aVersion15LedgerKeepsTodaysChargesPerResource() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-ledger-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("twfeed.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(queue, upTo: "v15: photos")
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO billedResource (day, kind, id) VALUES
                    ('2026-11-18', 'post_read', 10), ('2026-11-18', 'owned_read', 10), ('2026-11-18', 'user_read', 7);
                INSERT INTO spend (day, source, kind, resources, micros) VALUES ('2026-11-18', 'home', 'post_read', 1, 5000);
                """)
        }
        try queue.close()
        let database = try AppDatabase.open(path: path)
        let kept = try database.inspect { db in try Row.fetchAll(db, sql: "SELECT resource, id FROM billedResource ORDER BY resource") }
        #expect(kept.map { "\($0["resource"] as String) \($0["id"] as Int64)" } == ["post 10", "user 7"])
        try await store(database, page([10]), .mentions, now: Self.noon)
        let rows = try await rows(database)
        #expect(rows["2026-11-18 home post_read"]?.resources == 1 && rows["2026-11-18 home post_read"]?.repeats == 0)
        #expect(rows["2026-11-18 mentions owned_read"]?.resources == 0, "charged today before the upgrade: free")
        #expect(try await database.spent(from: "2026-11-18", before: "2026-11-19") == MicroUSD(micros: 5_000))
    }

    @Test func mentionsAreNormalReadsWhenTheAccountDoesNotOwnTheApp() async throws {
        let database = try AppDatabase.inMemory()
        try await store(database, page([5]), .mentions, terms: BillingTerms(ownsApp: false))
        #expect(try await rows(database)["2026-11-18 mentions post_read"]?.resources == 1)
    }

    @Test func anEmptyPageCostsNothing() async throws {
        let database = try AppDatabase.inMemory()
        try await store(database, page([], authors: []))
        #expect(try await rows(database).isEmpty)
    }

    @Test func thePriceIsTheConfiguredOne() async throws {
        let database = try AppDatabase.inMemory()
        var prices = Prices.published
        prices.postRead = MicroUSD(micros: 7_000)
        try await store(database, page([1], authors: []), terms: BillingTerms(prices: prices))
        #expect(try await rows(database)["2026-11-18 home post_read"]?.cost == MicroUSD(micros: 7_000))
    }

    /// A failure anywhere in the page's transaction (here the ledger's own insert, made
    /// to fail as a crash would cut it) leaves neither the page nor its charge; a retry
    /// then pays for it once.
    @Test func thePageAndItsChargeCommitTogetherOrNotAtAll() async throws {
        let database = try AppDatabase.inMemory()
        try database.tamper { db in
            try db.execute(sql: "CREATE TRIGGER crash BEFORE INSERT ON spend BEGIN SELECT RAISE(ABORT, 'crash'); END")
        }
        await #expect(throws: (any Error).self) { try await store(database, page([2, 1])) }
        #expect(try await database.memberIDs(.home).isEmpty)
        #expect(try database.inspect { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM billedResource") } == 0)

        try database.tamper { db in try db.execute(sql: "DROP TRIGGER crash") }
        try database.tamper { db in
            try db.execute(sql: "CREATE TRIGGER crash BEFORE INSERT ON feedMembership BEGIN SELECT RAISE(ABORT, 'crash'); END")
        }
        await #expect(throws: (any Error).self) { try await store(database, page([2, 1])) }
        #expect(try await rows(database).isEmpty)

        try database.tamper { db in try db.execute(sql: "DROP TRIGGER crash") }
        try await store(database, page([2, 1]))
        try await store(database, page([2, 1]))
        #expect(try await rows(database)["2026-11-18 home post_read"]?.resources == 2)
    }

    @Test func postsAreNeverDeduplicatedAndGoToTheOutbox() async throws {
        let database = try AppDatabase.inMemory()
        var bill = BillableAnswer(source: .outbox)
        bill.created = [.postCreateWithURL]
        try await database.recordSpend(bill, prices: .published, now: Self.noon)
        try await database.recordSpend(bill, prices: .published, now: Self.noon)
        let row = try #require(try await rows(database)["2026-11-18 outbox post_create_url"])
        #expect(row.resources == 2)
        #expect(row.cost == MicroUSD(micros: 400_000))
    }

    @Test func aReplyToAMentionIsSummoned() async throws {
        let database = try AppDatabase.inMemory()
        try await store(database, page([11]), .mentions)
        let terms = BillingTerms()
        #expect(try await terms.postPricing(text: "thanks", replyTo: TweetID(11), database: database).kind == .postCreateSummoned)
        #expect(try await terms.postPricing(text: "thanks", replyTo: TweetID(12), database: database).kind == .postCreate)
        #expect(try await terms.postPricing(text: "see example.com", replyTo: TweetID(11), database: database).kind == .postCreateWithURL)
    }
}
