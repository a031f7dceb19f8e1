import Foundation
import Testing
import TwfeedEmulator

@Suite struct DataTests {
    @Test func sameSeedSameData() {
        var configuration = EmulatorConfiguration()
        configuration.tweetsPerFeed = 50
        // Ids grow with time: both emulators read one fixed clock, or they could be made
        // in different seconds and differ for that reason alone.
        let start = Date()
        configuration.clock = { start }
        let a = Emulator(configuration: configuration), b = Emulator(configuration: configuration)
        for feed in EmulatorFeed.allCases {
            #expect(a.allTweetIDs(feed) == b.allTweetIDs(feed))
            #expect(a.allTweetIDs(feed).count == 50)
        }
        let id = a.allTweetIDs(.home)[7]
        #expect(a.tweet(id)?.text == b.tweet(id)?.text)
        #expect(a.addTweets(to: .home, count: 3) == b.addTweets(to: .home, count: 3))
        configuration.seed = 2
        #expect(Emulator(configuration: configuration).allTweetIDs(.home) != a.allTweetIDs(.home))
    }

    @Test func feedsOverlapAndIDsGrowWithTime() throws {
        let emulator = Emulator(configuration: EmulatorConfiguration())
        let home = Set(emulator.allTweetIDs(.home))
        let mentions = emulator.allTweetIDs(.mentions)
        let retweets = emulator.allTweetIDs(.retweets)
        #expect(!home.isDisjoint(with: mentions), "a mention by a followed account is also in home")
        #expect(!home.isDisjoint(with: retweets), "a retweeted tweet of mine is also in home")
        for feed in EmulatorFeed.allCases {
            let ids = emulator.allTweetIDs(feed).map { UInt64($0)! }
            #expect(ids == ids.sorted(by: >), "newest first")
            #expect(ids.allSatisfy { $0 > 1 << 53 })
        }
        for id in mentions.prefix(50) {
            #expect(emulator.tweet(id)?.text.contains("@twfeed_demo") == true)
            #expect(emulator.tweet(id)?.authorUsername != "twfeed_demo")
        }
        for id in retweets.prefix(50) { #expect(emulator.tweet(id)?.authorUsername == "twfeed_demo") }
        let newest = UInt64(emulator.allTweetIDs(.home)[0])!
        let added = emulator.addTweets(to: .retweets, count: 2)
        #expect(added.count == 2 && UInt64(added[1])! > newest && UInt64(added[0])! > UInt64(added[1])!)
        #expect(emulator.allTweetIDs(.retweets).prefix(2) == added[...])
        let texts = emulator.allTweetIDs(.home).compactMap { emulator.tweet($0)?.text }
        #expect(texts.contains { $0.unicodeScalars.count > 140 })
        #expect(texts.contains { $0.contains("&") })
        #expect(texts.contains { $0.unicodeScalars.contains { $0.properties.isEmojiPresentation } })
        let created = emulator.allTweetIDs(.home).compactMap { emulator.tweet($0)?.createdAt }
        #expect(created == created.sorted(by: >))
        #expect(created[0] < Date() && created[0] > Date(timeIntervalSinceNow: -3_600))
    }

    @Test func newTweetTimer() async throws {
        var configuration = EmulatorConfiguration()
        configuration.tweetsPerFeed = 10
        configuration.newTweetIntervalSeconds = 0.05
        let emulator = Emulator(configuration: configuration)
        try emulator.start()
        defer { emulator.stop() }
        let before = emulator.allTweetIDs(.mentions).count
        let deadline = Date(timeIntervalSinceNow: 10)
        while emulator.allTweetIDs(.mentions).count < before + 2, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(emulator.allTweetIDs(.mentions).count >= before + 2)
    }
}
