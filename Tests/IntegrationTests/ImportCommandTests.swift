import Foundation
import GRDB
import Testing
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore
import TwfeedTesting

/// `twfeed import` and the archive's feeds through the real binary: what is not an
/// archive is one line naming the file, exit 65, and the database as it was (or never
/// created); what an import stored reads as any feed.
@Suite(.serialized, .tags(.integration))
struct ImportCommandTests {
    @Test func somethingThatIsNotAnArchiveIsOneLineAndExit65AndChangesNothing() async throws {
        let folder = try BadInputTests.Folder()
        let bogus = "\(folder.path)/not-an-archive.txt"
        try "hello".write(toFile: bogus, atomically: true, encoding: .utf8)
        // No database yet: none is created for a refused archive.
        var result = try folder.run(["import", bogus])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("twfeed: \(bogus): ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.database))
        // A database with a post in it keeps every row.
        let database = try AppDatabase.open(path: folder.database)
        try await database.saveAccount(Account(userID: UserID(42), username: "me"))
        try await database.storePage(
            TimelinePage(
                tweets: [Tweet(id: TweetID(1), authorID: UserID(42), createdAt: Date(timeIntervalSince1970: 1), text: "kept")],
                authors: [Author(id: UserID(42), username: "me", name: "Me")], nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Date())
        let before = try await Self.content(database)
        for arguments in [["import", bogus], ["import", bogus, "--json"], ["import", bogus, "--dry-run"]] {
            result = try folder.run(arguments)
            #expect(result.status == 65 && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("twfeed: \(bogus): ") && result.stderr.split(separator: "\n").count == 1)
        }
        #expect(try await Self.content(database) == before)
    }

    /// What an import stored, through the commands that read: `feed posts|likes` (text and
    /// JSON), `search --feed posts`, `show`; a like's unknown author is said in words.
    @Test func theArchivesFeedsReadLikeAnyOther() async throws {
        let folder = try BadInputTests.Folder()
        let database = try AppDatabase.open(path: folder.database)
        try await database.saveAccount(Account(userID: UserID(42), username: "me"))
        let post = Tweet(id: TweetID(1_300_000_000_000_000_000), authorID: UserID(42), createdAt: Date(timeIntervalSince1970: 1_290_000_000),
                         text: "an old post about trains")
        let like = Tweet(id: TweetID(1_506_267_366_391_803_904), authorID: .unknown, createdAt: TweetID(1_506_267_366_391_803_904).snowflakeDate,
                         text: "a liked post…")
        _ = try await database.storeArchived([post], feed: .posts, account: UserID(42), now: Date())
        _ = try await database.storeArchived([like], feed: .likes, account: UserID(42), now: Date())
        var result = try folder.run(["feed", "likes"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("author not fetched yet") && result.stdout.contains("2022-03-22 13:51") && result.stdout.contains("a liked post…"))
        #expect(!result.stdout.contains("user 0") && !result.stdout.contains("@null"))
        result = try folder.run(["feed", "likes", "--json"])
        #expect(result.stdout.hasPrefix(#"{"author":null,"#), "\(result.stdout)")
        result = try folder.run(["search", "trains", "--feed", "posts", "--json"])
        #expect(result.status == 0 && result.stdout.contains(#""id":"1300000000000000000""#), "\(result.stderr)")
        result = try folder.run(["show", "1506267366391803904"])
        #expect(result.status == 0 && result.stdout.contains("author not fetched yet"), "\(result.stderr)")
    }

    /// The archive must be the signed-in account's, as the credentials file says (the id
    /// `login` recorded, else the one the access token starts with): another's is one line
    /// naming both, exit 65, and a fresh database is not even created; the signed-in
    /// account's own is imported.
    @Test func theSignedInAccountDecidesWhoseArchiveIsImported() async throws {
        let folder = try BadInputTests.Folder()
        let archive = ArchiveImportTests.fixture("current")  // @ada_example's, id 1000000001
        try Credentials(
            consumerKey: "ck", consumerSecret: "cs", accessToken: "7-abc", accessTokenSecret: "as", userID: UserID(7), username: "alice"
        ).write(to: folder.credentials)
        for arguments in [["import", archive], ["import", archive, "--json"], ["import", archive, "--dry-run"]] {
            BadInputTests.expectOneLine(
                try folder.run(arguments),
                "data/account.js: the archive is @ada_example's (id 1000000001), but the signed-in account is @alice (id 7)", exit: 65)
            #expect(!FileManager.default.fileExists(atPath: folder.database), "\(arguments)")
        }
        // Signed in as the archive's account, by a file written before twfeed recorded the
        // id: the token's own id tells.
        try Credentials(consumerKey: "ck", consumerSecret: "cs", accessToken: "1000000001-abc", accessTokenSecret: "as")
            .write(to: folder.credentials)
        let result = try folder.run(["import", archive, "--json"])
        #expect(result.status == 0 && result.stdout.contains(#""account":"ada_example""#), "\(result.stderr)")
        let database = try AppDatabase.open(path: folder.database)
        #expect(try await database.account()?.userID == UserID(1_000_000_001))
    }

    /// The archive's feeds have no gaps to fill: a usage error, not a request to the daemon.
    @Test func fillingAnArchiveFeedIsAUsageError() throws {
        let folder = try BadInputTests.Folder()
        let result = try folder.run(["fill", "posts", "--max-usd", "1"])
        BadInputTests.expectOneLine(
            result, "posts is imported from your archive, never read from the API: it has no gaps (see twfeed --help)", exit: 64)
    }

    static func content(_ database: AppDatabase) async throws -> [String] {
        try await database.read { db in
            var lines: [String] = []
            for table in ["tweet", "feedMembership", "feedCount", "user", "account", "photo", "media"] {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2") { lines.append("\(table) \(row)") }
            }
            return lines
        }
    }
}
