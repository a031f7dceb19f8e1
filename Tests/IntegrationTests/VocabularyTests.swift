import Foundation
import Testing
import TwfeedEmulator
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore

/// X's OpenAPI document of August 2026 names a post's fields the new way
/// (`referenced_posts`, `note_post`, `includes.posts`, `edit_history_post_ids`,
/// `repost_count`, problem types under `api.x.com`). Against the emulator answering in
/// each vocabulary, from the same seed and the same clock, what the user sees is the
/// same, byte for byte: every feed's `feed --json` and a conversation's `show --json`.
@Suite(.serialized, .tags(.integration))
struct VocabularyTests {
    /// The feeds after a backfill, a reply chain fetched whole, and an old own post
    /// reposted now (found by the retweets feed): `feed --json` of each, `show --json`
    /// of the chain's reply, and the reposted post's id.
    static func seen(_ vocabulary: EmulatorVocabulary, at start: Date) async throws -> [String: String] {
        let world = try TestWorld(dialect: "v2", tweets: 200) { settings in
            settings.clock = { start }
            settings.vocabulary = vocabulary
        }
        let clock = ManualClock(now: start)
        let daemon = try world.daemon(clock: clock)
        for syncer in daemon.syncers { #expect(try await syncer.poll().complete, "\(syncer.feed)") }
        let chain = try #require(world.emulator.addReplyChain(to: .home, depth: 4))
        let old = try #require(world.emulator.retweetOldTweet())
        clock.advance(by: 60)
        world.emulator.setClockSkew(seconds: 60)
        for syncer in daemon.syncers { #expect(try await syncer.poll().complete, "\(syncer.feed)") }
        try await daemon.database.requestFetch(chain.ancestors.compactMap(TweetID.init), reason: .asked, now: clock.now())
        let fetcher = try #require(daemon.fetcher)
        _ = try await fetcher.cycle()

        var seen = ["reposted": old, "chain": chain.id]
        for feed in Feed.allCases {
            let result = try Binary.run(["feed", feed.rawValue, "--json", "--limit", "1000", "--config", world.configPath])
            #expect(result.status == 0, "\(result.stderr)")
            seen[feed.rawValue] = result.stdout
        }
        let show = try Binary.run(["show", chain.id, "--json", "--config", world.configPath])
        #expect(show.status == 0, "\(show.stderr)")
        seen["show"] = show.stdout
        return seen
    }

    @Test func theNewVocabularyGivesTheSameFeedsByteForByte() async throws {
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60)
        let old = try await Self.seen(.tweet, at: start)
        let new = try await Self.seen(.post, at: start)
        for key in old.keys.sorted() { #expect(old[key] == new[key], "\(key) differs between the vocabularies") }

        // What is compared holds what each name carries: reposts with their original,
        // quotes, replies, long posts whole, the old post reposted, the chain up to its root.
        let home = try (old["home"] ?? "").split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }
        #expect(home.count > 100)
        #expect(home.contains { $0["retweetOf"]?["id"] != nil && $0["text"]?.string?.hasPrefix("RT @") == true })
        #expect(home.contains { $0["quoted"]?["id"] != nil })
        #expect(home.contains { ($0["text"]?.string?.count ?? 0) > 280 || ($0["retweetOf"]?["text"]?.string?.count ?? 0) > 280 })
        #expect(!home.contains { $0["conversationId"] == .null })
        let reposted = try #require(old["reposted"])
        #expect(old["retweets"]?.contains(#""id":"\#(reposted)""#) == true, "the old post reposted is in the retweets feed")
        let show = try JSONValue.parse(Data((old["show"] ?? "").utf8))
        guard case .array(let ancestors)? = show["ancestors"] else {
            Issue.record("no ancestors: \(old["show"] ?? "")")
            return
        }
        #expect(ancestors.count == 4 && !ancestors.contains { $0["missing"] == .bool(true) }, "the chain whole")
        #expect(show["tweet"]?["conversationId"] == ancestors.last?["id"], "the reply names its root")
    }
}
