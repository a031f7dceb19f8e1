import Foundation
import Testing
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

/// `twfeed search` as a user runs it, on a database the daemon's store wrote.
@Suite(.tags(.integration))
struct SearchTests {
    @Test func searchPrintsWhatFeedPrintsNewestFirstAndExitsZeroWithoutMatches() async throws {
        let world = try TestWorld(tweets: 5)
        let database = try AppDatabase.open(path: world.databasePath)
        let author = Author(id: UserID(7), username: "renee_k", name: "Renée Kühn")
        func store(_ feed: Feed, _ rows: [(Int64, String)]) async throws {
            let tweets = rows.map { Tweet(id: TweetID($0.0), authorID: author.id, createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double($0.0)), text: $0.1) }
            try await database.storePage(TimelinePage(tweets: tweets, authors: [author], nextPageToken: nil), feed: feed, state: SyncState(feed: feed), now: Date())
        }
        try await store(.home, [(901, "Un café crème"), (902, "Second CAFE of the day"), (903, "tea")])
        try await store(.mentions, [(904, "café AND \"NEAR\" *")])

        let search = try Binary.run(["search", "cafe", "--json", "--config", world.configPath])
        #expect(search.status == 0, "\(search.stderr)")
        let feed = try Binary.run(["feed", "home", "--json", "--limit", "50", "--config", world.configPath])
        let feedLines = feed.stdout.split(separator: "\n").filter { $0.contains(#""id":"90"#) }
        let searchLines = search.stdout.split(separator: "\n")
        #expect(searchLines.count == 3)
        #expect(Array(searchLines.dropFirst()) == feedLines.filter { !$0.contains(#""id":"903""#) },
                "902 and 901, as feed --json prints them")
        #expect(searchLines.first?.contains(#""id":"904""#) == true)

        let narrowed = try Binary.run(["search", "from:@Renee_K", "--feed", "home", "--limit", "1", "--json", "--config", world.configPath])
        #expect(narrowed.status == 0, "\(narrowed.stderr)")
        #expect(narrowed.stdout.split(separator: "\n") == feedLines.filter { $0.contains(#""id":"903""#) }, "tea: the newest by her in home")
        let human = try Binary.run(["search", "kuhn crème", "--feed", "home", "--limit", "1", "--config", world.configPath])
        #expect(human.status == 0)
        #expect(human.stdout.contains("@renee_k (Renée Kühn)"))
        #expect(human.stdout.contains("901"))

        // No match: exit 0, stdout empty (a pipe counts no post), one line on stderr saying so.
        let none = try Binary.run(["search", "coffee", "--config", world.configPath])
        #expect(none.status == 0)
        #expect(none.stdout.isEmpty)
        #expect(none.stderr == "no matches for coffee\n")
        let narrowedNone = try Binary.run(["search", "coffee", "--feed", "mentions", "--config", world.configPath])
        #expect(narrowedNone.stderr == "no matches for coffee in mentions\n")
        // --json stays silent: no object, no remark.
        let noneJSON = try Binary.run(["search", "coffee", "--json", "--config", world.configPath])
        #expect(noneJSON.status == 0 && noneJSON.stdout.isEmpty && noneJSON.stderr.isEmpty)
    }

    @Test(arguments: [#"say "hello"#, "", "from:"])
    func aQueryThatCannotBeParsedExits64WithOneLine(query: String) async throws {
        let result = try Binary.run(["search", query, "--config", "/nonexistent/twfeed.json"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("twfeed: search: "))
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
