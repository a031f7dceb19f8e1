import Foundation
import Testing
import TwfeedBilling
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedReader
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// Every refusal the pay-per-use API gives, against the emulator in both dialects: the
/// daemon enters the state once, holds back (statuses stay `pending`, never `failed`),
/// probes at its pace, and resumes by itself, each status posted exactly once.
@Suite(.serialized, .tags(.integration))
struct BillingRefusalTests {
    static func apiRequests(_ world: TestWorld) -> Int {
        world.emulator.requestCount(pathContains: world.dialect == "v2" ? "/2/" : "/1.1/")
    }

    static func pollAll(_ daemon: Daemon) async throws -> [PollOutcome] {
        var outcomes: [PollOutcome] = []
        for syncer in daemon.syncers { outcomes.append(try await syncer.poll()) }
        return outcomes
    }

    static func statusJSON(_ world: TestWorld) throws -> (Int32, JSONValue) {
        let run = try Binary.run(["status", "--json", "--config", world.configPath])
        return (run.status, try JSONValue.parse(run.stdout.trimmingCharacters(in: .newlines)))
    }

    /// Any 402 is no credits, whatever its body: each dialect's own (v1.1's errors list),
    /// the v2 problem in v1.1, nothing, a proxy's HTML page.
    @Test(arguments: ["v2", "v1.1"], [EmulatorRefusalShape.dialect, .problem, .errors, .empty, .html])
    func creditsRunOutAndComeBackWithoutLosingAStatus(dialect: String, shape: EmulatorRefusalShape) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 20)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        _ = try await Self.pollAll(daemon)
        let texts = ["first while broke", "second while broke", "third while broke"]
        var items: [OutboxItem] = []
        for text in texts { items.append(try await daemon.database.enqueue(text: text, replyTo: nil, now: clock.now())) }

        world.emulator.setRefusalShape(shape)
        world.emulator.setCredits(usd: 0)
        let before = Self.apiRequests(world)
        _ = try await daemon.flusher!.flush()
        for item in items {
            let stored = try #require(try await daemon.database.outboxItem(item.id))
            #expect(stored.state == .pending, "a billing refusal never fails a status")
            #expect(stored.attempts == 0, "and is not an attempt")
        }
        #expect(try await daemon.database.billingStatus()?.state == .outOfCredits)
        #expect(world.sink.events("billing.state").count == 1)

        // An hour without credits: the feeds poll on schedule, the outbox flushes, but
        // only the probes go out (one per api.creditsRecheckMinutes, 15).
        for _ in 0..<4 {
            clock.advance(by: 15 * 60)
            world.serverFollows(clock)
            _ = try await Self.pollAll(daemon)
            _ = try await daemon.flusher!.flush()
            _ = try await Self.pollAll(daemon)
        }
        let during = Self.apiRequests(world) - before
        #expect(during <= 5, "\(during) requests during the outage")
        #expect(try await daemon.database.outboxItems().allSatisfy { $0.state == .pending }, "none failed")
        #expect(world.sink.events("billing.state").count == 1, "one line on entering, none per request")
        let (_, status) = try Self.statusJSON(world)
        #expect(status["billing"]?["state"] == .string("out_of_credits"))

        world.emulator.setCredits(usd: nil)
        world.emulator.addTweets(to: .home, count: 2)
        clock.advance(by: 15 * 60)
        world.serverFollows(clock)
        _ = try await Self.pollAll(daemon)
        #expect(try await daemon.database.billingStatus()?.state == .ok)
        // The feeds catch up: what came during the outage is stored.
        _ = try await Self.pollAll(daemon)
        let home = Set(try await daemon.database.memberIDs(.home).map(\.description))
        #expect(home.isSuperset(of: world.emulator.expectedMembers(.home, dialect: dialect == "v2" ? .v2 : .v1_1)))
        #expect(world.sink.events("billing.state").count == 2, "one line on leaving")
        _ = try await daemon.flusher!.flush()
        let own = world.emulator.ownTweetIDs().compactMap { world.emulator.tweet($0)?.text }
        for (item, text) in zip(items, texts) {
            #expect(try await daemon.database.outboxItem(item.id)?.state == .sent)
            #expect(own.filter { $0 == text }.count == 1, "\(text) posted exactly once")
        }
        #expect(try Self.statusJSON(world).1["billing"]?["state"] == .string("ok"))
    }

    @Test(arguments: ["v2", "v1.1"])
    func theUsageCapStopsReadsAndLetsPostsThrough(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 20)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        _ = try await Self.pollAll(daemon)
        world.emulator.setUsageCap(postReads: 0)
        world.emulator.addTweets(to: .home, count: 3)
        let outcomes = try await Self.pollAll(daemon)
        #expect(try await daemon.database.billingStatus()?.state == .usageCap)
        #expect(world.sink.events("poll.rate_limited").isEmpty, "a usage cap is not a rate limit")
        // Not asked again at the next window: the next read waits a day (the probe).
        let next = try #require(outcomes.compactMap(\.nextPollAt).min())
        #expect(next.timeIntervalSince(clock.now()) > 3600)

        let item = try await daemon.database.enqueue(text: "posts go on under the read cap", replyTo: nil, now: clock.now())
        _ = try await daemon.flusher!.flush()
        #expect(try await daemon.database.outboxItem(item.id)?.state == .sent)
        let (_, status) = try Self.statusJSON(world)
        #expect(status["billing"]?["state"] == .string("usage_cap"))
        #expect(status["billing"]?["until"] != .null, "until the cycle ends")
    }

    @Test(arguments: ["v2", "v1.1"])
    func theSpendCapHoldsUntilItsResetDate(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 20)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        world.emulator.setSpendCap(usd: 0.000001)
        _ = try await Self.pollAll(daemon)
        let status = try #require(try await daemon.database.billingStatus())
        #expect(status.state == .spendCap)
        let until = try #require(status.until)
        #expect(until > clock.now())
        let before = Self.apiRequests(world)
        clock.advance(by: 3600)
        world.serverFollows(clock)
        _ = try await Self.pollAll(daemon)
        #expect(Self.apiRequests(world) == before, "nothing before the reset date")
        let item = try await daemon.database.enqueue(text: "waits for the cap", replyTo: nil, now: clock.now())
        _ = try await daemon.flusher!.flush()
        #expect(try await daemon.database.outboxItem(item.id)?.state == .pending)
    }

    @Test(arguments: ["v2", "v1.1"])
    func aFeedNotEnrolledIsNotPermittedAndTheOthersGoOn(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 20)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        world.emulator.setNotEnrolled(.clientNotEnrolled, for: .home)
        _ = try await Self.pollAll(daemon)
        let refusals = try await daemon.database.endpointRefusals()
        #expect(refusals.map(\.source) == [.home])
        #expect(world.sink.events("feed.not_permitted").count == 1)
        #expect(try await daemon.database.feedStats(.mentions).tweets > 0, "mentions go on")
        let (_, status) = try Self.statusJSON(world)
        #expect(status["feeds"]?["home"]?["permitted"] == .bool(false))
        #expect(status["feeds"]?["mentions"]?["permitted"] == .bool(true))
        #expect(status["billing"]?["state"] == .string("ok"), "the account is fine; one endpoint is not")

        // Fixed in the console, then a reload: asked again at once, not in a day.
        world.emulator.setNotEnrolled(nil, for: .home)
        try await daemon.database.recheckEndpointRefusals(at: clock.now())
        let reloaded = try world.daemon(database: daemon.database, clock: clock)
        let home = try #require(reloaded.syncers.first { $0.feed == .home })
        let outcome = try await home.poll()
        #expect(outcome.hold == nil)
        #expect(try await daemon.database.endpointRefusals().isEmpty)
        #expect(world.sink.events("feed.permitted").count == 1)
        #expect(try await daemon.database.feedStats(.home).tweets > 0)
    }
}
