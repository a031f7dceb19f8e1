import Foundation
import Testing
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedBilling
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// The issue "The bill", parts 6 and 7: an uncertain status is settled by the server's
/// ids, not by comparing clocks; and a read whose kept-alive connection died is sent
/// again signed afresh, not answered 401 for a replayed nonce.
@Suite(.serialized, .tags(.integration))
struct SettleTests {
    /// A world whose server clock is `skewHours` off this machine's; the signature's
    /// timestamp tolerance is widened so the requests are still taken (the point is the
    /// tweets' dates, not the signing).
    static func world(dialect: String, skewHours: Double) throws -> TestWorld {
        try TestWorld(dialect: dialect, tweets: 5) { configuration in
            configuration.clockSkewSeconds = skewHours * 3600
            configuration.timestampToleranceSeconds = 48 * 3600
        }
    }

    static func postPath(_ dialect: String) -> String { dialect == "v2" ? "/2/tweets" : "update.json" }
    static func ownPostsPath(_ dialect: String) -> String {
        dialect == "v2" ? "/2/users/\(Emulator.accountUserID)/tweets" : "user_timeline"
    }

    /// Polls home once (the account and some tweet ids land in the store), queues `text`,
    /// has the emulator take the post and drop the answer, then flushes until settled.
    static func loseTheAnswer(
        _ world: TestWorld,
        text: String,
        clock: ManualClock,
        beforeSettling: () -> Void = {}
    ) async throws -> (Daemon, OutboxItem) {
        let daemon = try world.daemon(clock: clock)
        let home = try #require(daemon.syncers.first { $0.feed == .home })
        try await home.poll()
        let queued = try await daemon.database.enqueue(text: text, replyTo: nil, now: clock.now())
        world.emulator.inject(.acceptThenReset, times: 1, pathContains: postPath(world.dialect))
        let pause = try await daemon.flusher!.flush()
        let uncertain = try #require(try await daemon.database.outboxItem(queued.id))
        #expect(uncertain.state == .uncertain)
        #expect(uncertain.newestIDBeforeAttempt != nil)
        #expect(world.emulator.postedStatuses.count == 1)
        beforeSettling()
        if case .until(let retry) = pause { clock.advance(to: retry) }
        _ = try await daemon.flusher!.flush()
        return (daemon, try #require(try await daemon.database.outboxItem(queued.id)))
    }

    @Test(arguments: ["v2", "v1.1"], [-6.0, -3.0, 3.0, 6.0])
    func aLostAnswerIsSettledByIDWhateverTheServersClockSays(dialect: String, skewHours: Double) async throws {
        let world = try Self.world(dialect: dialect, skewHours: skewHours)
        let clock = ManualClock(now: Date())
        let text = "the server's clock is \(Int(skewHours)) h off"
        let (daemon, settled) = try await Self.loseTheAnswer(world, text: text, clock: clock)
        #expect(settled.state == .sent, "\(settled.lastError?.description ?? "")")
        #expect(settled.attempts == 1)
        #expect(world.emulator.postedStatuses.map(\.text) == [text])
        let posted = try #require(world.emulator.postedStatuses.first?.id)
        #expect(settled.sentTweetID?.description == posted)
        #expect(world.emulator.ownTweetIDs().filter { $0 == posted }.count == 1)
        // Only posts after the bound were asked for.
        let read = try #require(world.emulator.requests.last { $0.endpoint == "ownPosts" })
        #expect(read.query.contains("since_id=\(settled.newestIDBeforeAttempt!.description)"))
        #expect(world.sink.events("outbox.settled").last?.contains("outcome=sent") == true)
        _ = daemon
    }

    /// What the API does to a text: escapes `&` `<` `>`, turns every link (a bare domain
    /// too) into a t.co link, keeps a long post whole only in `note_tweet`.
    @Test(arguments: [
        ("v2", "fish & chips <3 >> all"),
        ("v1.1", "fish & chips <3 >> all"),
        ("v2", "read https://example.com/a?b=1&c=2 now & later"),
        ("v1.1", "read https://example.com/a?b=1&c=2 now & later"),
        ("v2", "a bare example.org link, then (https://docs.example.dev/x/)."),
        ("v1.1", "a bare example.org link, then (https://docs.example.dev/x/)."),
        ("v2", String(repeating: "a long post & more <words> ", count: 16) + "https://example.com/end"),
    ])
    func aTextTheAPIRewroteStillSettles(dialect: String, text: String) async throws {
        let world = try Self.world(dialect: dialect, skewHours: -3)
        world.emulator.setLongPostsAllowed(true)
        let clock = ManualClock(now: Date())
        let (_, settled) = try await Self.loseTheAnswer(world, text: text, clock: clock)
        #expect(settled.state == .sent, "\(settled.lastError?.description ?? "")")
        let posted = try #require(world.emulator.postedStatuses.first?.id)
        #expect(settled.sentTweetID?.description == posted)
        #expect(world.emulator.postedStatuses.count == 1)
        if text.count > 280 {
            #expect(world.emulator.tweet(posted)?.text.hasSuffix("…") == true, "the emulator should have cut the text")
        } else if text.contains("example.") {
            #expect(world.emulator.tweet(posted)?.text.contains("https://t.co/") == true, "the emulator should have shortened the links")
        }
    }

    /// The own posts cannot be read at all (a 403): the status is sent again and the
    /// API's duplicate answer proves the first attempt went out.
    @Test(arguments: ["v2", "v1.1"])
    func aRefusedOwnPostsReadSendsAgainAndTheDuplicateProvesItWentOut(dialect: String) async throws {
        let world = try Self.world(dialect: dialect, skewHours: -4)
        let clock = ManualClock(now: Date())
        let text = "nobody may read my posts"
        let (daemon, settled) = try await Self.loseTheAnswer(world, text: text, clock: clock) {
            world.emulator.inject(.status(403), times: 10, pathContains: Self.ownPostsPath(dialect))
        }
        #expect(settled.state == .sent, "\(settled.lastError?.description ?? "")")
        #expect(settled.sentTweetID == nil)
        #expect(settled.lastError?.kind == .sentAsDuplicate)
        #expect(world.emulator.postedStatuses.count == 1)
        #expect(world.emulator.ownTweetIDs().filter { world.emulator.tweet($0)?.text == text }.count == 1)
        // The resend reached the API and was refused as a duplicate.
        #expect(world.emulator.requestCount(pathContains: Self.postPath(dialect)) == 2)
        #expect(world.sink.events("outbox.settled").contains { $0.contains("outcome=resend") })
        #expect(world.sink.events("outbox.settled").last?.contains("outcome=duplicate") == true)
        // Charged once, as a post.
        let posts = try await daemon.database.spendTotals().filter { !$0.kind.isRead }.reduce(0) { $0 + $1.resources }
        #expect(posts == 1)
    }

    /// Part 7: the server drops a kept-alive connection as a read arrives; libcurl sends
    /// the read again by itself with the same nonce, which the API refuses (401). twfeed
    /// signs it afresh at once: the poll succeeds, with no authentication backoff.
    @Test(arguments: ["v2", "v1.1"])
    func aReadWhoseReusedConnectionDiedIsSentAgainSignedAfresh(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 10)
        let daemon = try world.daemon()
        let home = try #require(daemon.syncers.first { $0.feed == .home })
        try await home.poll()
        _ = world.emulator.addTweets(to: .home, count: 3)
        world.emulator.dropKeptAliveConnections(afterRequests: 1, times: 1)
        let outcome = try await home.poll()
        #expect(outcome.error == nil)
        let state = try await daemon.database.syncState(.home)
        #expect(state.lastError == nil)
        let wait = try #require(state.nextPollAt).timeIntervalSinceNow
        #expect(wait > 5 && wait <= 16, "\(wait)")
        #expect(world.sink.events("auth.failed").isEmpty)
        #expect(try await daemon.database.memberIDs(.home).map(\.description) == world.emulator.groundTruth(.home, dialect: EmulatorDialect(rawValue: dialect)!))

        let records = world.emulator.requests
        let dropped = try #require(records.firstIndex { $0.fault == "close-kept-alive" })
        #expect(records[dropped].connectionRequestNumber > 1)
        let after = records[(dropped + 1)...].filter { $0.path == records[dropped].path }
        // The answer that counts came with a nonce of its own.
        let answered = try #require(after.first { $0.status == 200 })
        #expect(answered.nonce != nil)
        #expect(answered.nonce != records[dropped].nonce)
    }
}
