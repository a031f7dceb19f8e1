import Foundation
import Testing
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// The outbox against the emulator: every status goes out exactly once, or expires.
@Suite(.serialized, .tags(.integration))
struct OutboxTests {
    /// Exactly once without the API's duplicate check (the emulator's window is 0): the
    /// server takes the status and the connection drops before the answer; only
    /// twfeed's settling (reading the account's own tweets) keeps it from going out twice.
    @Test(arguments: ["v2", "v1.1"])
    func aLostAnswerStillEndsWithTheStatusPostedOnceAndMarkedSent(dialect: String) async throws {
        let world = try TestWorld(dialect: dialect, tweets: 5)
        world.emulator.setDuplicateWindow(seconds: 0)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        let text = "accepted, then the line went dead & <gone>"
        let item = try await daemon.database.enqueue(text: text, replyTo: nil, now: clock.now())
        world.emulator.inject(.acceptThenReset, times: 1, pathContains: dialect == "v2" ? "/2/tweets" : "update.json")

        let pause = try await daemon.flusher!.flush()
        #expect(try await daemon.database.outboxItem(item.id)?.state.rawValue == "uncertain")
        #expect(world.emulator.postedStatuses.count == 1)
        guard case .until(let retry) = pause else { Issue.record("expected a retry"); return }
        clock.advance(to: retry)
        _ = try await daemon.flusher!.flush()

        let settled = try #require(try await daemon.database.outboxItem(item.id))
        #expect(settled.state == .sent)
        #expect(settled.attempts == 1)
        #expect(world.emulator.postedStatuses.map(\.text) == [text])
        #expect(settled.sentTweetID?.description == world.emulator.postedStatuses.first?.id)
        #expect(world.emulator.ownTweetIDs().filter { $0 == world.emulator.postedStatuses.first?.id }.count == 1)
        let list = try Binary.run(["outbox", "list", "--json", "--config", world.configPath])
        let listed = try JSONValue.parse(list.stdout.trimmingCharacters(in: .newlines))
        #expect(listed["state"] == .string("sent"))
        #expect(listed["sentTweetId"]?.string == world.emulator.postedStatuses.first?.id)
    }

    @Test func aStatusQueuedWhileTheAPIIsDownGoesOutWhenItIsBack() async throws {
        let world = try TestWorld(tweets: 5)
        let port = world.emulator.port
        world.emulator.stop()
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        let item = try await daemon.database.enqueue(text: "written in a tunnel", replyTo: TweetID(7), now: clock.now())
        guard case .until(let retry) = try await daemon.flusher!.flush() else { Issue.record("expected a retry"); return }
        let waiting = try #require(try await daemon.database.outboxItem(item.id))
        #expect(waiting.state == .pending)
        #expect(waiting.lastError?.description.contains("no answer") == true)

        var configuration = world.emulator.configuration
        configuration.port = port
        let back = Emulator(configuration: configuration)
        try back.start()
        defer { back.stop() }
        let target = try #require(back.allTweetIDs(.home).first)
        // Reply to a tweet the new emulator knows.
        try daemon.database.tamper { try $0.execute(sql: "UPDATE outbox SET replyToId = ?", arguments: [Int64(target)!]) }
        clock.advance(to: retry)
        _ = try await daemon.flusher!.flush()
        #expect(try await daemon.database.outboxItem(item.id)?.state == .sent)
        #expect(back.postedStatuses.map(\.text) == ["written in a tunnel"])
        #expect(back.postedStatuses.first?.inReplyToID == target)
    }

    @Test func aStatusQueued25HoursAgoExpiresAndNeverReachesTheAPI() async throws {
        let world = try TestWorld(tweets: 5)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        let old = try await daemon.database.enqueue(text: "yesterday's news", replyTo: nil, now: clock.now().addingTimeInterval(-25 * 3600))
        let fresh = try await daemon.database.enqueue(text: "today's news", replyTo: nil, now: clock.now())
        _ = try await daemon.flusher!.flush()
        #expect(try await daemon.database.outboxItem(old.id)?.state == .expired)
        #expect(try await daemon.database.outboxItem(fresh.id)?.state == .sent)
        #expect(world.emulator.postedStatuses.map(\.text) == ["today's news"])
        #expect(world.sink.events("outbox.expired").count == 1)
    }

    @Test func theAPIsRefusalIsKeptAsTheReason() async throws {
        let world = try TestWorld(tweets: 5)
        let clock = ManualClock(now: Date())
        let daemon = try world.daemon(clock: clock)
        let item = try await daemon.database.enqueue(text: "to nobody", replyTo: TweetID(12345), now: clock.now())
        _ = try await daemon.flusher!.flush()
        let failed = try #require(try await daemon.database.outboxItem(item.id))
        #expect(failed.state == .failed)
        #expect(failed.lastError?.status == 403)
        #expect(world.emulator.postedStatuses.isEmpty)
    }

    @Test func postQueuesWithTheDaemonStoppedAndTheRunningDaemonSendsItWithinASecond() async throws {
        let world = try TestWorld(tweets: 5)
        let queued = try Binary.run(["post", "--json", "--config", world.configPath, "queued while stopped"])
        #expect(queued.status == 0, "\(queued.stderr)")
        let object = try JSONValue.parse(queued.stdout)
        #expect(object["state"] == .string("pending"))
        #expect(object["id"]?.string != nil)

        let process = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/run.log")
        defer { process.terminate(); process.waitUntilExit() }
        #expect(await eventually { world.emulator.postedStatuses.count == 1 })
        let started = Date()
        #expect(try Binary.run(["post", "--config", world.configPath, "sent at once"]).status == 0)
        #expect(await eventually { world.emulator.postedStatuses.count == 2 })
        #expect(Date().timeIntervalSince(started) < 1.5)

        let list = try Binary.run(["outbox", "list", "--json", "--config", world.configPath])
        let items = try list.stdout.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(items.count == 2)
        for item in items {
            for key in ["id", "text", "state", "attempts", "createdAt", "lastError", "sentTweetId"] {
                #expect(item[key] != nil, "missing \(key)")
            }
        }
        #expect(try await eventually { try await AppDatabase.open(path: world.databasePath).outboxItems().allSatisfy { $0.state == .sent } })
    }

    @Test func postRefusesWhatTheAPIWouldRefuse() async throws {
        let world = try TestWorld(tweets: 1)
        let long = String(repeating: "a", count: 291)
        let tooLong = try Binary.run(["post", "--config", world.configPath, long])
        #expect(tooLong.status == 65)
        #expect(tooLong.stderr == "twfeed: status is 291/280 characters\n")
        let blank = try Binary.run(["post", "--config", world.configPath, "  \n "])
        #expect(blank.status == 65)
        #expect(blank.stderr == "twfeed: status is empty\n")
        let dry = try Binary.run(["post", "--dry-run", "--json", "--config", world.configPath, long])
        #expect(dry.status == 65)
        let measured = try JSONValue.parse(dry.stdout)
        #expect(measured["weightedLength"] == .number("291"))
        #expect(measured["valid"] == .bool(false))
        #expect(measured["permillage"] == .number("1039"))
        let fine = try Binary.run(["post", "--dry-run", "--json", "--config", world.configPath, "日本語 and https://example.com"])
        #expect(fine.status == 0)
        #expect(try JSONValue.parse(fine.stdout)["weightedLength"] == .number("34"))
        let piped = try Binary.run(["post", "--json", "--config", world.configPath, "-"], input: "from stdin\n")
        #expect(piped.status == 0)
        await #expect(try AppDatabase.open(path: world.databasePath).outboxItems().map(\.text) == ["from stdin"])
        #expect(try Binary.run(["post", "--reply-to", "abc", "--config", world.configPath, "x"]).status == 64)
    }

    @Test func outboxRetryAndCancelFromTheCommandLine() async throws {
        let world = try TestWorld(tweets: 1)
        let database = try AppDatabase.open(path: world.databasePath)
        let old = try await database.enqueue(text: "old", replyTo: nil, now: Date().addingTimeInterval(-90 * 86400))
        try await database.transitionOutbox(old.id, from: [.pending], to: .expired)
        let pending = try await database.enqueue(text: "pending", replyTo: nil, now: Date())
        #expect(try Binary.run(["outbox", "retry", "\(old.id)", "--config", world.configPath]).status == 0)
        #expect(try await database.outboxItem(old.id)?.state == .pending)
        #expect(try await database.outboxItem(old.id)!.queuedAt.timeIntervalSinceNow > -60)
        #expect(try Binary.run(["outbox", "cancel", "\(pending.id)", "--config", world.configPath]).status == 0)
        #expect(try await database.outboxItem(pending.id)?.state == .cancelled)
        let again = try Binary.run(["outbox", "cancel", "\(pending.id)", "--config", world.configPath])
        #expect(again.status == 65)
        #expect(again.stderr.contains("only pending, failed or blocked statuses can be cancelled"))
        #expect(try Binary.run(["outbox", "retry", "999", "--config", world.configPath]).status == 65)

        // A failed status whose earlier attempt may have gone out is not queued to be
        // posted blindly: it is looked up among the account's tweets first.
        let doubtful = try await database.enqueue(text: "did it go?", replyTo: nil, now: Date())
        try await database.transitionOutbox(doubtful.id, from: [.pending], to: .failed, changes: [.attempts(2), .uncertainSince(Date())])
        let retried = try Binary.run(["outbox", "retry", "\(doubtful.id)", "--config", world.configPath])
        #expect(retried.status == 0)
        #expect(retried.stdout.contains("may have gone out already"))
        #expect(try await database.outboxItem(doubtful.id)?.state == .uncertain)
        let listed = try Binary.run(["outbox", "list", "--config", world.configPath])
        #expect(listed.stdout.contains("#\(doubtful.id)  uncertain "))

        // A long status is cut at a word, with "…", not in the middle of one.
        let long = try await database.enqueue(text: "Hello from the twfeed demo, 2026-11-28T09:00:00Z and more", replyTo: nil, now: Date())
        let cut = try Binary.run(["outbox", "--config", world.configPath])
        let line = cut.stdout.split(separator: "\n").first { $0.hasPrefix("#\(long.id) ") }
        #expect(line?.contains("  Hello from the twfeed demo,…  ") == true, "\(cut.stdout)")
    }

    /// SIGKILL the real daemon at random moments while it flushes 200 statuses: each is
    /// posted exactly once (the emulator's count) and the database stays sound.
    @Test func crashesAtRandomMomentsNeverPostTwiceOrLoseAStatus() async throws {
        let world = try TestWorld(tweets: 5)
        world.emulator.setRateLimit(10_000, for: "post")
        try world.writeConfig(["outbox": .object(["flushIntervalSeconds": .number("1")])])
        let database = try AppDatabase.open(path: world.databasePath)
        let texts = (0 ..< 200).map { "crash-test status \($0)" }
        for text in texts { _ = try await database.enqueue(text: text, replyTo: nil, now: Date()) }
        // Slow answers widen the window between "accepted" and "marked sent".
        world.emulator.inject(.slow(seconds: 0.02), times: 200, pathContains: "/2/tweets")
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        for round in 0 ..< 12 {
            let process = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/crash\(round).log")
            try await Task.sleep(for: .milliseconds(Int.random(in: 150 ... 600, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            kills += 1
            if world.emulator.postedStatuses.count == texts.count { break }
        }
        let final = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/final.log")
        defer { final.terminate(); final.waitUntilExit() }
        #expect(try await eventually {
            try await database.outboxItems().allSatisfy { $0.state == .sent || $0.state == .expired }
        })
        let posted = world.emulator.postedStatuses.map(\.text)
        #expect(posted.count == Set(posted).count, "a status was posted twice")
        #expect(Set(posted) == Set(texts))
        #expect(kills >= 1)
        let check = try database.inspect { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
    }
}
