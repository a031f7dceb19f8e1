import Foundation
import Testing
import TwfeedTesting
import TwfeedBase
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore
@testable import TwfeedReader
@testable import TwfeedStatus

/// Under systemd's DynamicUser the database is private; `twfeed status` by anyone else
/// must still show everything, from the world-readable snapshot.
final class StatusSnapshotTests {
    /// Each test's folder, removed after it (also by the tests that never use it).
    let scratch: ScratchFolder
    var folder: String { scratch.path }

    init() throws { scratch = try ScratchFolder(prefix: "twfeed-snap") }

    /// The daemon's side: a database with a poll, a failure and a queued status.
    func daemonSnapshot(now: Date) async throws -> (StatusSnapshot, TwfeedConfig) {
        let database = try AppDatabase.inMemory()
        var config = TwfeedConfig(environment: ["HOME": folder])
        config.storage.database = "\(folder)/private/twfeed.sqlite"
        try await database.saveAccount(Account(userID: UserID(1001), username: "alice", accessToken: "token"))
        var home = SyncState(feed: .home)
        home.lastPollAt = now.addingTimeInterval(-30)
        home.lastError = PollFailure(kind: .transient, status: 503, message: "Service Unavailable")
        home.nextPollAt = now.addingTimeInterval(15)
        home.rateLimit = RateLimit(limit: 180, remaining: 170, resetAt: now.addingTimeInterval(600))
        try await database.saveSyncState(home)
        var mentions = SyncState(feed: .mentions)
        mentions.lastPollAt = now.addingTimeInterval(-20)
        mentions.lastSuccessAt = now.addingTimeInterval(-20)
        try await database.saveSyncState(mentions)
        _ = try await database.enqueue(text: "a private status text", replyTo: nil, now: now.addingTimeInterval(-90))
        let board = StatusBoard(config: config, database: database, startedAt: now.addingTimeInterval(-120))
        board.record(.home, .failed(APIError(kind: .transient, status: 503, message: "Service Unavailable"), PollProgress(), next: now))
        board.record(.mentions, .caughtUp(PollProgress(newTweets: 12, pages: 1, requests: 1, complete: true), next: now))
        await board.refresh(now: now)
        #expect(board.takeStatusLine() == "home error 503 · mentions +12 · retweets waiting · outbox 1 pending")
        #expect(board.takeStatusLine() == nil)
        return (board.snapshot, config)
    }

    @Test func statusReadsEverythingFromTheSnapshotWhenTheDatabaseIsNotReadable() async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (snapshot, config) = try await daemonSnapshot(now: now)
        let path = "\(folder)/status.json"
        try snapshot.write(to: path)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o644)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("a private status text"))

        // The reader has no database at that path (it is private to the service).
        let report = try await StatusReport.collect(config: config, statusPath: path, now: now.addingTimeInterval(5))
        #expect(report.countsFrom == "snapshot")
        #expect(report.running)
        #expect(report.health == .degraded)
        let json = report.json
        #expect(json["feeds"]?["home"]?["lastError"]?.string == "HTTP 503: Service Unavailable")
        #expect(json["feeds"]?["home"]?["rateLimitRemaining"] == .number("170"))
        #expect(json["feeds"]?["home"]?["nextPollAt"]?.string == Timestamp.iso8601(now.addingTimeInterval(15)))
        #expect(json["feeds"]?["mentions"]?["lastSuccessAt"]?.string == Timestamp.iso8601(now.addingTimeInterval(-20)))
        #expect(json["outbox"]?["pending"] == .number("1"))
        #expect(json["outbox"]?["oldestPendingAgeSeconds"] == .number("95"))
        #expect(json["database"]?["path"]?.string == config.storage.database)
        #expect(json["daemon"]?["pid"] == .number(String(getpid())))
        #expect(json["daemon"]?["uptimeSeconds"] == .number("125"))
        // `status` names the account the feeds belong to.
        #expect(json["account"]?["username"]?.string == "alice")
        #expect(json["account"]?["id"]?.string == "1001")
        #expect(json["daemon"]?["lastCycle"]?.string == "home error 503 · mentions +12 · retweets waiting · outbox 1 pending")
    }

    @Test func aStaleHeartbeatReadsAsHungAndAMissingSnapshotAsNotRunning() async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var (snapshot, config) = try await daemonSnapshot(now: now)
        snapshot.counts?.feeds[.home]?.lastError = nil
        let path = "\(folder)/status.json"
        try snapshot.write(to: path)
        #expect(try await StatusReport.collect(config: config, statusPath: path, now: now.addingTimeInterval(10)).health == .healthy)
        #expect(try await StatusReport.collect(config: config, statusPath: path, now: now.addingTimeInterval(31)).health == .degraded)
        snapshot.pid = Int32.max - 1  // no such process
        try snapshot.write(to: path)
        #expect(try await StatusReport.collect(config: config, statusPath: path, now: now).health == .notRunning)
        unlink(path)
        let gone = try await StatusReport.collect(config: config, statusPath: path, now: now)
        #expect(gone.health == .notRunning)
        #expect(gone.countsFrom == "none")
    }

    /// One value answers for `status`'s exit status, its JSON, its table and `/healthz`.
    @Test func eachHealthHasItsExitStatusNameAndLabel() {
        #expect(StatusReport.Health.allCases.map(\.exitCode) == [0, 1, 3])
        #expect(StatusReport.Health.allCases.map(\.name) == ["healthy", "degraded", "not-running"])
        #expect(StatusReport.Health.allCases.map(\.label) == ["healthy", "degraded", "not running"])
    }

    /// A stopped account (billing) or a feed the API refuses makes `status` exit 1.
    @Test func aStoppedAccountOrARefusedFeedMakesStatusExitOne() {
        let stopped = StatusReport.Health(
            running: true, heartbeatAge: 1, signedOut: false, anEnabledFeedFailed: false, billingStopped: true)
        let refused = StatusReport.Health(
            running: true, heartbeatAge: 1, signedOut: false, anEnabledFeedFailed: false, notPermitted: true)
        let fine = StatusReport.Health(running: true, heartbeatAge: 1, signedOut: false, anEnabledFeedFailed: false)
        #expect(stopped.exitCode == 1)
        #expect(refused.exitCode == 1)
        #expect(fine.exitCode == 0)
    }
}
