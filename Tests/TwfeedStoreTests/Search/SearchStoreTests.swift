import Foundation
import GRDB
import Testing
@testable import TwfeedCore
@testable import TwfeedStore

/// `AppDatabase.search` over stored pages: what a user searching their archive sees.
struct SearchStoreTests {
    static let alice = Author(id: UserID(1), username: "alice", name: "Alice Martin")
    static let bob = Author(id: UserID(2), username: "bob_w", name: "Bob Wêber")

    let database: AppDatabase

    init() async throws {
        database = try AppDatabase.inMemory()
        try await store(.home, [
            (10, Self.alice, "Morning coffee at the Café de Flore"),
            (11, Self.bob, "A flat white, then work"),
            (12, Self.alice, "White noise and COFFEE"),
            (13, Self.bob, "Reading about NEAR(a b) OR * ^x and \"quotes\" col:y"),
        ])
        try await store(.mentions, [(14, Self.bob, "@alice coffee later?"), (11, Self.bob, "A flat white, then work")])
    }

    func store(_ feed: Feed, _ rows: [(id: Int64, author: Author, text: String)]) async throws {
        let page = TimelinePage(
            tweets: rows.map { Tweet(id: TweetID($0.id), authorID: $0.author.id, createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double($0.id)), text: $0.text) },
            authors: rows.map(\.author), nextPageToken: nil)
        try await database.storePage(page, feed: feed, state: SyncState(feed: feed), now: Date())
    }

    func ids(_ query: String, feed: Feed? = nil, limit: Int = 50) async throws -> [Int64] {
        try await database.search(SearchQuery(parsing: query), feed: feed, limit: limit).map(\.tweet.id.rawValue)
    }

    @Test func allWordsMustMatchNewestFirstWhateverTheCaseOrAccents() async throws {
        #expect(try await ids("coffee") == [14, 12, 10])
        #expect(try await ids("COFFEE white") == [12])
        #expect(try await ids("cafe") == [10])
        #expect(try await ids("CAFÉ flore") == [10])
        #expect(try await ids("weber") == [14, 13, 11], "an accent in an author's name is folded too")
    }

    @Test func aPhraseMatchesItsWordsInOrderOnly() async throws {
        #expect(try await ids(#""flat white""#) == [11])
        #expect(try await ids(#""white flat""#) == [])
        #expect(try await ids(#""noise and coffee""#) == [12])
    }

    @Test func fromLimitsToAnAuthorByUsernameInAnyCase() async throws {
        #expect(try await ids("from:ALICE") == [12, 10])
        #expect(try await ids("coffee from:@bob_w") == [14])
        #expect(try await ids("from:alice from:bob_w", limit: 3) == [14, 13, 12])
        #expect(try await ids("coffee from:nobody") == [])
    }

    @Test func wordsMatchTheAuthorsUsernameAndName() async throws {
        #expect(try await ids("martin") == [12, 10])
        #expect(try await ids("alice coffee") == [14, 12, 10], "14 says @alice; 12 and 10 are by Alice")
        #expect(try await ids(#""alice martin" noise"#) == [12])
    }

    @Test func feedAndLimitNarrowTheNewestFirstList() async throws {
        #expect(try await ids("coffee", feed: .home) == [12, 10])
        #expect(try await ids("coffee", feed: .mentions) == [14])
        #expect(try await ids("coffee", feed: .retweets) == [])
        #expect(try await ids("coffee", limit: 2) == [14, 12])
        #expect(try await ids("white", feed: .mentions, limit: 1) == [11])
    }

    @Test func ftsSyntaxInATweetOrAQueryIsPlainText() async throws {
        #expect(try await ids(#"NEAR(a b) OR * ^x col:y"#) == [13])
        #expect(try await ids(#""quotes" near"#) == [13])
        #expect(try await ids("AND") == [13, 12], "AND is a word, not an operator")
    }

    @Test func resultsAreTheFeedItemsFeedShows() async throws {
        let found = try await database.search(SearchQuery(parsing: "flat"), feed: nil, limit: 5)
        let shown = try await database.feedItems(.mentions, limit: 5).filter { $0.tweet.id == TweetID(11) }
        #expect(found == shown)
        #expect(found.first?.feeds == [.home, .mentions])
    }

    @Test func anAuthorRenameIsFoundByTheNewNameAndNoLongerByTheOld() async throws {
        let renamed = Author(id: Self.alice.id, username: "alice_new", name: "Alicia Öztürk")
        try await store(.home, [(15, renamed, "tea today")])
        #expect(try await ids("from:alice") == [])
        #expect(try await ids("from:alice_new") == [15, 12, 10])
        #expect(try await ids("martin") == [])
        #expect(try await ids("ozturk") == [15, 12, 10])
        #expect(try integrityCheck())
    }

    @Test func anEditedOrDeletedTweetLeavesTheIndexInStep() async throws {
        try await store(.home, [(10, Self.alice, "Evening tea")])
        #expect(try await ids("coffee") == [14, 12])
        #expect(try await ids("evening") == [10])
        _ = try database.tamper { try $0.execute(sql: "DELETE FROM tweet WHERE id IN (10, 12)") }
        #expect(try await ids("evening") == [])
        #expect(try await ids("coffee") == [14])
        #expect(try integrityCheck())
    }

    @Test func aFailedWriteLeavesNoIndexEntryBehind() async throws {
        #expect(throws: TwfeedError.self) {
            try database.tamper { db in
                try db.execute(sql: "INSERT INTO tweet (id, authorId, createdAt, text, raw, fetchedAt) VALUES (99, 1, 0, 'ghost words', '{}', 0)")
                try db.execute(sql: "INSERT INTO nosuchtable VALUES (1)")
            }
        }
        #expect(try await ids("ghost") == [])
        #expect(try integrityCheck())
    }

    /// FTS5's own check: the index holds exactly what the content tables say.
    func integrityCheck() throws -> Bool {
        try database.tamper { db in
            try db.execute(sql: "INSERT INTO tweetSearch(tweetSearch, rank) VALUES ('integrity-check', 1)")
            try db.execute(sql: "INSERT INTO userSearch(userSearch, rank) VALUES ('integrity-check', 1)")
        }
        return true
    }
}
