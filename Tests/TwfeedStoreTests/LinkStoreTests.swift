import Foundation
import GRDB
import Testing
@testable import TwfeedCore
@testable import TwfeedStore
import TwfeedTesting

/// A post's links are stored with it (v18, `link`): a page reads them without parsing the
/// stored answer, and a database from before v18 keeps the links its posts showed.
@Suite struct LinkStoreTests {
    static let ada = Author(id: UserID(1), username: "ada", name: "Ada")
    static let article = TweetLink(url: "https://t.co/a1", expandedURL: "https://example.com/article", displayURL: "example.com/article")
    static let other = TweetLink(url: "https://t.co/b2", expandedURL: "https://example.net/", displayURL: nil)

    static func post(_ id: Int64, links: [TweetLink]) -> Tweet {
        Tweet(id: TweetID(id), authorID: ada.id, createdAt: Date(timeIntervalSince1970: Double(id)), text: "post \(id) https://t.co/a1",
              conversationID: TweetID(id), links: links)
    }

    static func store(_ tweets: [Tweet], in database: AppDatabase) async throws {
        try await database.storePage(TimelinePage(tweets: tweets, authors: [ada], nextPageToken: nil), feed: .home,
                                     state: SyncState(feed: .home), now: Date())
    }

    /// What the client read is what the page gets, in its order; a post stored again gets
    /// the links of its new answer (none left over from the old one).
    @Test func aStoredPostsLinksAreReadBackAndReplacedWithItsAnswer() async throws {
        let database = try AppDatabase.inMemory()
        try await Self.store([Self.post(1, links: [Self.article, Self.other]), Self.post(2, links: [])], in: database)
        #expect(try await database.tweetLinks([TweetID(1), TweetID(2)]) == [TweetID(1): [Self.article, Self.other]])
        try await Self.store([Self.post(1, links: [Self.other])], in: database)
        #expect(try await database.tweetLinks([TweetID(1)]) == [TweetID(1): [Self.other]])
    }

    /// A database from before v18: the migration reads each post's links from its stored
    /// answer, as the reader did on every view (any depth, the first of each `url`); a
    /// stored answer that is not JSON gets none, and the migration still runs.
    @Test func theMigrationFillsTheLinksOfPostsStoredBeforeIt() async throws {
        let older = try OlderDatabase(before: "v18: links stored at ingest")
        defer { older.remove() }
        let v2 = #"{"id":"1","entities":{"urls":[{"url":"https://t.co/a1","expanded_url":"https://example.com/article","display_url":"example.com/article"},{"url":"https://t.co/b2","expanded_url":"https://example.net/"}]}}"#
        // v1.1: the retweet's own entities repeat the original's link, which is kept once.
        let v11 = #"{"id_str":"2","entities":{"urls":[{"url":"https://t.co/a1","expanded_url":"https://example.com/article","display_url":"example.com/article"}]},"retweeted_status":{"entities":{"urls":[{"url":"https://t.co/a1","expanded_url":"https://example.com/other","display_url":"x"},{"url":"https://t.co/c3","expanded_url":"https://example.org/","display_url":"example.org"}]}}}"#
        try await older.queue.write { db in
            let insert = try db.makeStatement(
                sql: "INSERT INTO tweet (id, authorId, createdAt, text, conversationId, raw, fetchedAt) VALUES (?, 1, 0, 't', ?, ?, 0)")
            for (id, raw) in [(1, v2), (2, v11), (3, #"{"expanded_url": not json"#), (4, "{}")] as [(Int64, String)] {
                try insert.execute(arguments: [id, id, raw])
            }
        }
        let database = try older.openMigrated()
        let links = try await database.tweetLinks([1, 2, 3, 4].map(TweetID.init))
        #expect(links[TweetID(1)] == [Self.article, Self.other])
        #expect(links[TweetID(2)] == [Self.article, TweetLink(url: "https://t.co/c3", expandedURL: "https://example.org/", displayURL: "example.org")])
        #expect(links[TweetID(3)] == nil && links[TweetID(4)] == nil)
    }

    /// A page's posts, their links and the header's counts come from one read, and are
    /// what the separate reads give.
    @Test func aTimelinePageIsTheSeparateReadsInOne() async throws {
        let database = try AppDatabase.inMemory()
        try await database.saveAccount(Account(userID: UserID(99), username: "me"))
        try await Self.store([Self.post(1, links: [Self.article]), Self.post(2, links: [])], in: database)
        let request = StoredCounts.Request(now: Date(), feeds: true, today: ("2026-11-28", "2026-11-29"), cycle: ("2026-11-01", "2026-12-01"))
        let page = try await database.reader.timelinePage(.home, limit: 50, before: nil, avatarPath: { _ in nil }, counts: request)
        #expect(page.content.items == (try await database.feedItems(.home, limit: 50)))
        #expect(page.links == [TweetID(1): [Self.article]])
        let counts = try #require(page.counts)
        #expect(counts.feeds[.home]?.stats == (try await database.feedStats(.home)))
        #expect(counts.feeds[.home]?.stats.tweets == 2 && counts.account?.username == "me")
        let withoutCounts = try await database.reader.timelinePage(.home, limit: 50, before: nil, avatarPath: { _ in nil }, counts: nil)
        #expect(withoutCounts.counts == nil && withoutCounts.links == page.links)
    }
}
