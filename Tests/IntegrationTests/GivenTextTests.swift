import Foundation
import Testing
import TwfeedEmulator
@testable import TwfeedKit

/// Markup in a tweet's text and in its author's name is text: the daemon stores exactly
/// what the author typed (the API's `&lt;` `&gt;` `&amp;` undone once, never twice), in
/// both dialects, and `feed --json` prints it back byte for byte.
@Suite(.serialized, .tags(.integration))
struct GivenTextTests {
    static let texts = [
        #"<img src=x onerror=alert(1)><script>alert(2)</script>"#,
        #"Typed entities stay typed: &lt;b&gt; &amp;amp; &#39; and a bare & < > "quotes" 'single' 🦊"#,
    ]
    static let name = #"<b>Bold</b> & "quoted""#

    @Test(arguments: ["v2", "v1.1"])
    func theDaemonStoresTheExactTextAndNameAndFeedPrintsThem(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 20)
        let daemon = try world.daemon()
        for syncer in daemon.syncers { try await syncer.poll() }

        let home = Self.texts.map { world.emulator.addTweet(to: .home, text: $0, authorName: Self.name) }
        let mention = world.emulator.addTweet(to: .mentions, text: "@twfeed_demo " + Self.texts[0], authorName: Self.name)
        let mine = world.emulator.addTweet(to: .retweets, text: Self.texts[1])
        for syncer in daemon.syncers { try await syncer.poll() }

        let stored = try await daemon.database.feedItems(.home, limit: 50)
        for (id, text) in zip(home, Self.texts) {
            let item = try #require(stored.first { $0.tweet.id.description == id }, "\(id) stored")
            #expect(item.tweet.text == text)
            #expect(item.author?.name == Self.name)
            #expect(item.author?.username == "hostile_1")
        }
        let mentions = try await daemon.database.feedItems(.mentions, limit: 5)
        #expect(mentions.first { $0.tweet.id.description == mention }?.tweet.text == "@twfeed_demo " + Self.texts[0])
        let retweets = try await daemon.database.feedItems(.retweets, limit: 5)
        #expect(retweets.first { $0.tweet.id.description == mine }?.tweet.text == Self.texts[1])

        let feed = try Binary.run(["feed", "home", "--json", "--limit", "10", "--config", world.configPath])
        #expect(feed.status == 0, "\(feed.stderr)")
        let printed = feed.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        for (id, text) in zip(home, Self.texts) {
            let object = try #require(printed.first { $0["id"] as? String == id }, "\(id) printed")
            #expect(object["text"] as? String == text)
            #expect((object["author"] as? [String: Any])?["name"] as? String == Self.name)
        }
    }
}
