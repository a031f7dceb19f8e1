import Foundation
import GRDB
import Testing
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// Feed positions and feed tags belong to the signed-in account: signing in as another
/// account starts its own and shows none of the other's; signing back in finds them.
struct AccountScopeTests {
    static let alice = Account(userID: UserID(1001), username: "alice", accessToken: "token-a")
    static let bob = Account(userID: UserID(2002), username: "bob", accessToken: "token-b")

    func page(_ ids: [Int64]) -> TimelinePage {
        TimelinePage(
            tweets: ids.map { Tweet(id: TweetID($0), authorID: UserID(7), createdAt: Date(timeIntervalSince1970: 1_700_000_000), text: "t\($0)") },
            authors: [Author(id: UserID(7), username: "someone", name: "Some One")], nextPageToken: nil)
    }

    func viewRows(_ database: AppDatabase) throws -> [String] {
        try database.inspect { db in
            try String.fetchAll(db, sql: "SELECT id FROM timeline WHERE feed = 'home' ORDER BY tweet_id DESC LIMIT 20")
        }
    }

    @Test func signingInAsAnotherAccountStartsItsOwnFeedsAndSigningBackFindsTheFirst() async throws {
        let database = try AppDatabase.inMemory()
        try await database.saveAccount(Self.alice)
        var state = try await database.syncState(.home)
        state.newestID = TweetID(20)
        try await database.storePage(page([20, 10]), feed: .home, state: state, now: Date())
        try await database.storePage(page([20]), feed: .mentions, state: SyncState(feed: .mentions), now: Date())
        #expect(try await database.memberIDs(.home) == [TweetID(20), TweetID(10)])

        try await database.saveAccount(Self.bob)
        #expect(try await database.memberIDs(.home).isEmpty)
        #expect(try await database.feedItems(.home, limit: 50).isEmpty)
        #expect(try await database.feedStats(.home) == FeedStats(tweets: 0))
        #expect(try await database.syncState(.home).newestID == nil)
        #expect(try viewRows(database).isEmpty)
        // Bob's own backfill brings a tweet Alice also has: tagged for Bob only as his.
        try await database.storePage(page([20, 15]), feed: .home, state: try await database.syncState(.home), now: Date())
        let items = try await database.feedItems(.home, limit: 50)
        #expect(items.map(\.tweet.id) == [TweetID(20), TweetID(15)])
        #expect(items[0].feeds == [.home], "Alice's mentions tag must not show for Bob")
        #expect(try await database.search(SearchQuery(parsing: "t10"), feed: .home, limit: 10).isEmpty)
        #expect(try await database.knownIDs([TweetID(10), TweetID(15)], feed: .home) == [TweetID(15)])

        try await database.saveAccount(Self.alice)
        #expect(try await database.memberIDs(.home) == [TweetID(20), TweetID(10)])
        #expect(try await database.feedStats(.home).tweets == 2)
        #expect(try await database.feedStats(.mentions).tweets == 1)
        #expect(try await database.syncState(.home).newestID == TweetID(20))
        #expect(try await database.knownIDs([TweetID(10), TweetID(15)], feed: .home) == [TweetID(10)])
        #expect(try await database.knownIDs([TweetID(10), TweetID(15)], feed: .home, account: .account(UserID(2002))) == [TweetID(15)])
        #expect(try await database.feedItems(.home, limit: 50)[0].feeds == [.home, .mentions])
        #expect(try viewRows(database) == ["20", "10"])
        #expect(try await database.search(SearchQuery(parsing: "t10"), feed: .home, limit: 10).map(\.tweet.id) == [TweetID(10)])
    }

    @Test func aDatabaseWithoutAnAccountKeepsWorkingAndTheFirstAccountAdoptsItsRows() async throws {
        let database = try AppDatabase.inMemory()
        var state = SyncState(feed: .home)
        state.newestID = TweetID(10)
        try await database.storePage(page([10]), feed: .home, state: state, now: Date())
        #expect(try await database.memberIDs(.home) == [TweetID(10)])
        #expect(try await database.syncState(.home).newestID == TweetID(10))
        try await database.saveAccount(Self.alice)
        #expect(try await database.memberIDs(.home) == [TweetID(10)])
        #expect(try await database.syncState(.home).newestID == TweetID(10))
        #expect(try await database.feedStats(.home).tweets == 1)
    }

    @Test func migrationGivesExistingRowsToTheStoredAccount() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-scope-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("twfeed.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(queue, upTo: "v6: retention")
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO account (key, value) VALUES ('userId', '1001'), ('username', 'alice');
                INSERT INTO user (id, username, name, updatedAt) VALUES (7, 'someone', 'Some One', 0);
                INSERT INTO tweet (id, authorId, createdAt, text, raw, fetchedAt) VALUES (10, 7, 0, 'old', '{}', 0);
                INSERT INTO feedMembership (feed, tweetId, addedAt) VALUES ('home', 10, 0);
                INSERT INTO syncState (feed, newestId) VALUES ('home', 10);
                """)
        }
        try queue.close()
        let database = try AppDatabase.open(path: path)
        #expect(try await database.memberIDs(.home) == [TweetID(10)])
        #expect(try await database.feedStats(.home).tweets == 1)
        #expect(try await database.syncState(.home).newestID == TweetID(10))
        #expect(try await database.syncState(.home, account: .account(UserID(1001))).newestID == TweetID(10))
        try await database.saveAccount(Self.bob)
        #expect(try await database.memberIDs(.home).isEmpty)
    }

    /// The daemon's side: the syncer asks for the new account's whole backlog (no
    /// since_id from the other account), and back on the first account resumes it.
    @Test func theSyncerStartsANewAccountsOwnPositions() async throws {
        let fixture = try SyncFixture()
        let aliceIDs = fixture.api.add(5, to: .home)
        try await fixture.syncer(token: "token-a").poll()
        #expect(try await fixture.database.memberIDs(.home) == aliceIDs.sorted(by: >))

        fixture.api.state.withLock { $0.account = Author(id: UserID(2002), username: "bob", name: "Bob") }
        let before = fixture.api.requestCount
        try await fixture.syncer(token: "token-b").poll()
        #expect(fixture.api.queries[before].sinceID == nil, "a new account must not inherit since_id")
        #expect(try await fixture.database.account()?.userID == UserID(2002))
        #expect(try await fixture.database.memberIDs(.home) == aliceIDs.sorted(by: >), "Bob's own backfill")
        #expect(try await fixture.database.syncState(.home, account: .account(UserID(2002))).newestID == aliceIDs.max())

        fixture.api.state.withLock { $0.account = FakeTimelineAPI.me }
        let newer = fixture.api.add(2, to: .home)
        let again = fixture.api.requestCount
        try await fixture.syncer(token: "token-a2").poll()
        #expect(fixture.api.queries[again].sinceID == aliceIDs.max(), "the first account resumes where it was")
        #expect(try await fixture.database.memberIDs(.home) == (aliceIDs + newer).sorted(by: >))
        #expect(try await fixture.database.syncState(.home, account: .account(UserID(2002))).newestID == aliceIDs.max())
    }
}
