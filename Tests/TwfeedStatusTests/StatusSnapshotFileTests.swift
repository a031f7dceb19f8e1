import Foundation
import Testing
@testable import TwfeedBilling
@testable import TwfeedCore
@testable import TwfeedStatus
@testable import TwfeedStore

/// The world-readable file `twfeed status` reads when the database is private: what the
/// daemon writes reads back the same, by names, across versions.
final class StatusSnapshotFileTests {
    init() throws { scratch = try TemporaryFolder("twfeed-snapfile") }

    let scratch: TemporaryFolder
    var folder: String { scratch.path }

    /// A daemon's snapshot with every part filled: two feeds (one failing, rate limited),
    /// the outbox, the account and the ledger's summary.
    static func fullSnapshot() -> StatusSnapshot {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var home = SyncState(feed: .home)
        home.lastPollAt = now.addingTimeInterval(-30)
        home.lastError = PollFailure(kind: .transient, status: 503, message: "Service Unavailable")
        home.nextPollAt = now.addingTimeInterval(15)
        home.rateLimit = RateLimit(limit: 180, remaining: 170, resetAt: now.addingTimeInterval(600))
        var mentions = SyncState(feed: .mentions)
        mentions.lastSuccessAt = now.addingTimeInterval(-20)
        let spend = SpendCounts(
            todayMicros: 215_000, cycleMicros: 1_500_000, cycleStart: "2027-01-01", cycleEnd: "2027-02-01", budgetMicros: 5_000_000,
            bySourceMicros: [.home: 15_000, .outbox: 200_000], byKindResources: [.postRead: 3, .postCreate: 1],
            state: BillingState.budgetLimited.rawValue, since: now.addingTimeInterval(-60),
            refusals: [.retweets: .init(reason: "not_permitted", detail: "client-not-enrolled", since: now.addingTimeInterval(-3600))],
            gaps: [.mentions: 2], emulated: true)
        var snapshot = StatusSnapshot(pid: 4242, startedAt: now.addingTimeInterval(-120), heartbeatAt: now, dialect: "v2",
                                      lastCycle: "home error 503 · mentions +12")
        snapshot.processStartTicks = 987_654
        snapshot.credentialsPath = "/etc/twfeed/credentials.json"
        snapshot.counts = StatusSnapshot.Counts(
            at: now,
            feeds: [
                .home: .init(
                    enabled: true, stats: FeedStats(tweets: 40, newestID: TweetID(1_900_000_000_000_000_001), newestCreatedAt: now), sync: home),
                .mentions: .init(enabled: false, stats: FeedStats(tweets: 3), sync: mentions),
            ],
            outbox: [.pending: 1, .uncertain: 2],
            oldestPendingAt: now.addingTimeInterval(-90),
            imageFiles: 7, imageBytes: 70_000,
            databasePath: "/var/lib/twfeed/twfeed.sqlite", databaseBytes: 4096,
            account: .init(id: UserID(1001), username: "alice"),
            spend: spend)
        return snapshot
    }

    @Test func aFullSnapshotReadsBackAsWritten() throws {
        let path = "\(folder)/status.json"
        let snapshot = Self.fullSnapshot()
        try snapshot.write(to: path)
        let reread = try #require(StatusSnapshot.read(from: path))
        #expect(reread.counts?.feeds[.home] == snapshot.counts?.feeds[.home])
        #expect(reread.counts?.feeds[.home]?.sync(.home).lastError?.status == 503)
        #expect(reread.counts?.feeds[.home]?.sync(.home).rateLimit?.remaining == 170)
        #expect(reread.counts?.feeds[.mentions]?.enabled == false)
        #expect(reread.counts?.outbox == [.pending: 1, .uncertain: 2])
        #expect(reread.counts?.account?.username == "alice")
        // The ledger's summary travels with the counts: `status` run by another user
        // (who cannot open the database) still shows the bill.
        #expect(reread.counts?.spend == snapshot.counts?.spend)
        #expect(reread == snapshot)

        let written = try JSONValue.parse(Array(try #require(FileManager.default.contents(atPath: path))))
        #expect(written["counts"]?["feeds"]?["home"]?["tweets"] == .number("40"))
        #expect(written["counts"]?["feeds"]?["home"]?["newestId"]?.string == "1900000000000000001", "ids are strings")
        #expect(written["counts"]?["account"]?["id"]?.string == "1001")
        #expect(written["counts"]?["spend"]?["bySourceMicros"]?["outbox"] == .number("200000"))
        #expect(written["heartbeatAt"] == .number("1800000000"), "times are seconds since 1970")
    }

    @Test func aMissingOrTornSnapshotReadsAsNone() throws {
        let path = "\(folder)/status.json"
        #expect(StatusSnapshot.read(from: path) == nil)
        try Data(#"{"pid":4242,"startedAt":18000"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(StatusSnapshot.read(from: path) == nil)
    }

    /// A snapshot a version before the ledger wrote (no `spend`, no `account`) still reads.
    @Test func aSnapshotWrittenBeforeTheLedgerReadsWithoutSpend() throws {
        let path = "\(folder)/status.json"
        try #"""
        {"pid":7,"startedAt":1800000000,"heartbeatAt":1800000010,"dialect":"v1.1",\#
        "counts":{"at":1800000010,"feeds":{"home":{"enabled":true,"tweets":1}},"outbox":{},\#
        "imageFiles":0,"imageBytes":0,"databasePath":"/tmp/x.sqlite","databaseBytes":0}}
        """#.write(toFile: path, atomically: true, encoding: .utf8)
        let snapshot = try #require(StatusSnapshot.read(from: path))
        #expect(snapshot.dialect == "v1.1")
        #expect(snapshot.counts?.spend == nil)
        #expect(snapshot.counts?.account == nil)
        #expect(snapshot.counts?.feeds[.home]?.tweets == 1)
        #expect(snapshot.counts?.outbox.isEmpty == true)
    }

    /// The outbox and feed counts are keyed by `OutboxState` and `Feed` in code and by name in the
    /// file, as before: a snapshot an earlier twfeed wrote still decodes (a state name this
    /// version does not know included), and what this one writes reads the same.
    @Test func theSnapshotFileKeepsTheOutboxCountsByStateName() throws {
        let path = "\(folder)/status.json"
        let earlier = """
            {"pid":4242,"startedAt":1800000000,"heartbeatAt":1800000060,"dialect":"v2","lastCycle":"home +3 · outbox 1 pending",\
            "counts":{"at":1800000060,"feeds":{"home":{"enabled":true,"tweets":3},"bookmarks":{"enabled":true,"tweets":9}},\
            "outbox":{"pending":1,"sent":2,"postponed":7},"oldestPendingAt":1800000000,\
            "imageFiles":0,"imageBytes":0,"databasePath":"/var/lib/twfeed/twfeed.sqlite","databaseBytes":4096},\
            "signedOut":false}
            """
        try earlier.write(toFile: path, atomically: true, encoding: .utf8)
        var snapshot = try #require(StatusSnapshot.read(from: path))
        #expect(snapshot.pid == 4242)
        #expect(snapshot.counts?.outbox == [.pending: 1, .sent: 2])
        #expect(snapshot.counts?.feeds[.home]?.tweets == 3)
        #expect(snapshot.counts?.feeds.count == 1, "a feed this version does not know is left out")

        snapshot.counts?.outbox[.uncertain] = 4
        try snapshot.write(to: path)
        let written = try JSONValue.parse(Array(try #require(FileManager.default.contents(atPath: path))))
        #expect(written["counts"]?["outbox"] == .object(["pending": .number("1"), "sent": .number("2"), "uncertain": .number("4")]))
        #expect(written["counts"]?["feeds"]?["home"]?["tweets"] == .number("3"), "feeds are written by name")
        let reread = try #require(StatusSnapshot.read(from: path))
        #expect(reread == snapshot)
        #expect(reread.counts?.outbox == [.pending: 1, .sent: 2, .uncertain: 4])
    }

    @Test func aReaderWithoutTheDaemonsEnvironmentFindsTheSystemdSnapshot() throws {
        let config = TwfeedConfig(environment: ["HOME": folder])
        let systemd = "\(folder)/run-twfeed-status.json"
        #expect(StatusSnapshot.readerPath(config: config, environment: [:], systemdPath: systemd) == config.storage.database + ".status.json")
        try StatusSnapshot(pid: 1, startedAt: Date(), heartbeatAt: Date(), dialect: "v2").write(to: systemd)
        #expect(StatusSnapshot.readerPath(config: config, environment: [:], systemdPath: systemd) == systemd)
        #expect(StatusSnapshot.readerPath(config: config, environment: ["RUNTIME_DIRECTORY": "/run/x"], systemdPath: systemd) == systemd)
        #expect(StatusSnapshot.path(config: config, environment: ["RUNTIME_DIRECTORY": "/run/x"]) == "/run/x/status.json")
    }
}
