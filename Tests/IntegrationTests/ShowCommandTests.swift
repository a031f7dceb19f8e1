import Foundation
import Testing
import TwfeedBilling
import TwfeedEmulator
@testable import TwfeedCore
@testable import TwfeedStore
import TwfeedTesting

/// `twfeed show ID [--json]`: a post with its conversation, offline.
@Suite(.tags(.integration)) struct ShowCommandTests {
    @Test func showPrintsTheAncestorsAndRepliesAndSaysWhatIsMissing() async throws {
        let world = try TestWorld(tweets: 1)
        let database = try AppDatabase.open(path: try world.config.storage.database)
        let ada = Author(id: UserID(7), username: "ada", name: "Ada", profileImageURL: nil)
        func tweet(_ id: Int64, _ replyTo: Int64?) -> Tweet {
            Tweet(id: TweetID(id), authorID: ada.id, createdAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(id)),
                  text: "post \(id)", inReplyToID: replyTo.map(TweetID.init))
        }
        // 50 (not stored) <- 51 <- 52 <- 53 (home) <- 54
        _ = try await database.storePage(
            TimelinePage(tweets: [tweet(53, 52), tweet(54, 53)], referencedTweets: [tweet(51, 50), tweet(52, 51)], authors: [ada],
                         nextPageToken: nil),
            feed: .home, state: SyncState(feed: .home), now: Date())

        let json = try Binary.run(["show", "53", "--json", "--config", world.configPath])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONValue.parse(Data(json.stdout.utf8))
        #expect(object["tweet"]?["id"] == .string("53"))
        guard case .array(let ancestors)? = object["ancestors"], case .array(let replies)? = object["replies"] else {
            Issue.record("no lists: \(json.stdout)")
            return
        }
        #expect(ancestors.map { $0["id"] } == [.string("52"), .string("51"), .string("50")])
        #expect(ancestors.last == .object(["id": .string("50"), "missing": .bool(true), "unavailable": .null]))
        #expect(replies.map { $0["id"] } == [.string("54")])

        let text = try Binary.run(["show", "53", "--config", world.configPath])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "post 50: not fetched yet")
        // Each post's parent is printed just above it: no "replying to" line says it again.
        #expect(!text.stdout.contains("replying to @ada: post 52"), "\(text.stdout)")
        #expect(text.stdout.components(separatedBy: "post 50").count == 2, "post 50 is named once")

        // Gone, as a lookup said: said once, as unavailable, not also as "not fetched yet".
        try await database.storeLookup(found: TimelinePage(tweets: [], authors: [], nextPageToken: nil),
                                       unavailable: [TweetID(50): "Not Found Error: Could not find tweet with id: [50]."],
                                       asked: [TweetID(50)], now: Date(), bill: BillableAnswer(source: .lookups), prices: .published)
        let gone = try Binary.run(["show", "51", "--config", world.configPath])
        #expect(gone.stdout.hasPrefix("post 50: unavailable (Not Found Error: Could not find tweet with id: [50].)\n  |\n"), "\(gone.stdout)")
        #expect(!gone.stdout.contains("not fetched yet"), "\(gone.stdout)")
        // In a list, where no parent is printed above, a reply still says whom it answers.
        let feed = try Binary.run(["feed", "home", "--config", world.configPath])
        #expect(feed.stdout.contains("replying to @ada: post 52"), "\(feed.stdout)")

        // The gone post itself: 69, with the API's word, not a promise to fetch it soon.
        let itself = try Binary.run(["show", "50", "--config", world.configPath])
        #expect(itself.status == 69)
        #expect(itself.stderr.contains("post 50 is not stored: unavailable (Not Found Error: Could not find tweet with id: [50].)"), "\(itself.stderr)")
        #expect(try Binary.run(["show", "49", "--config", world.configPath]).status == 69)
        let bad = try Binary.run(["show", "x1", "--config", world.configPath])
        #expect(bad.status == 64 && bad.stderr.contains("x1 is not a tweet id"))
    }

    /// A reply whose parent the API no longer gives: `feed --json`, `show --json` and the
    /// text say whom it answers, from what the reply's own answer said (v2: the mention of
    /// `in_reply_to_user_id`; v1.1: `in_reply_to_screen_name`).
    @Test(arguments: ["v2", "v1.1"])
    func aReplyWhoseParentIsGoneNamesWhomItAnswers(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 20)
        let chain = try #require(world.emulator.addReplyChain(to: .home, depth: 1))
        let parent = try #require(chain.ancestors.first)
        let whom = try #require(world.emulator.tweet(parent)?.authorUsername)
        #expect(world.emulator.deleteTweet(parent))
        let daemon = try world.daemon()
        _ = try await daemon.syncers.first { $0.feed == .home }!.poll()

        let expected = JSONValue.object(["id": .string(parent), "username": .string(whom)])
        let feed = try Binary.run(["feed", "home", "--json", "--config", world.configPath])
        #expect(feed.status == 0, "\(feed.stderr)")
        let objects = try feed.stdout.split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }
        let reply = try #require(objects.first { $0["id"] == .string(chain.id) }, "\(feed.stdout)")
        #expect(reply["inReplyTo"] == expected, "\(dialect): \(reply)")
        let show = try Binary.run(["show", chain.id, "--json", "--config", world.configPath])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(try JSONValue.parse(Data(show.stdout.utf8))["tweet"]?["inReplyTo"] == expected)
        let text = try Binary.run(["feed", "home", "--config", world.configPath])
        #expect(text.stdout.contains("    replying to @\(whom) (post \(parent), not fetched yet)"), "\(text.stdout)")
    }

    /// The post, its parent and a list's "replying to" line show each link as the reader
    /// does: where it leads, by its display URL, not the `t.co` link the text holds.
    @Test func showShowsLinksByTheirDisplayURLInThePostAndInItsParentsLine() async throws {
        let world = try TestWorld(tweets: 1)
        let database = try AppDatabase.open(path: try world.config.storage.database)
        let ada = Author(id: UserID(7), username: "ada", name: "Ada", profileImageURL: nil)
        func tweet(_ id: Int64, _ replyTo: Int64?, _ text: String, _ link: (short: String, to: String, shown: String)) -> Tweet {
            let raw = #"{"id":"\#(id)","text":"\#(text)","entities":{"urls":[{"url":"\#(link.short)","expanded_url":"\#(link.to)","display_url":"\#(link.shown)"}]}}"#
            return Tweet(id: TweetID(id), authorID: ada.id, createdAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(id)), text: text,
                         inReplyToID: replyTo.map(TweetID.init),
                         links: [TweetLink(url: link.short, expandedURL: link.to, displayURL: link.shown)], rawJSON: raw)
        }
        let parent = tweet(60, nil, "Worth reading: https://t.co/Parent0001", ("https://t.co/Parent0001", "https://example.com/a/long/article", "example.com/a/long/arti…"))
        let reply = tweet(61, 60, "Agreed, see https://t.co/Reply00001", ("https://t.co/Reply00001", "https://example.net/more", "example.net/more"))
        _ = try await database.storePage(TimelinePage(tweets: [reply], referencedTweets: [parent], authors: [ada], nextPageToken: nil),
                                         feed: .home, state: SyncState(feed: .home), now: Date())
        let text = try Binary.run(["show", "61", "--config", world.configPath])
        #expect(text.status == 0, "\(text.stderr)")
        // `show` prints the parent just above its reply, so no "replying to" line repeats it.
        #expect(!text.stdout.contains("replying to"), "\(text.stdout)")
        #expect(text.stdout.contains("    Agreed, see example.net/more"))
        #expect(text.stdout.contains("    Worth reading: example.com/a/long/arti…"), "the parent above, alike")
        #expect(!text.stdout.contains("t.co/"))

        // `feed` and `search` show the post and its parent's line the same way; JSON keeps the stored text.
        for listing in [["feed", "home"], ["search", "agreed"]] {
            let shown = try Binary.run(listing + ["--config", world.configPath])
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout.contains("    replying to @ada: Worth reading: example.com/a/long/arti…"), "\(listing): \(shown.stdout)")
            #expect(shown.stdout.contains("    Agreed, see example.net/more"), "\(listing)")
        }
        let json = try Binary.run(["feed", "home", "--json", "--config", world.configPath])
        #expect(json.stdout.contains(#""text":"Agreed, see https://t.co/Reply00001""#))
    }

    @Test func fetchQueuesForARunningDaemonAndSays69WithoutOne() async throws {
        let world = try TestWorld(tweets: 1)
        let none = try Binary.run(["fetch", "123", "456", "--config", world.configPath])
        #expect(none.status == 69 && none.stderr.contains("no daemon runs"))
        #expect(try Binary.run(["fetch", "12x", "--config", world.configPath]).status == 64)
        #expect(try Binary.run(["fetch", "--config", world.configPath]).status == 64)
        let database = try StoreReader.open(path: try world.config.storage.database)
        #expect(Set(try await database.pendingFetches(limit: 10, now: Date()).map(\.id)) == [TweetID(123), TweetID(456)], "the requests wait for the daemon")
    }
}
