import Foundation
import TwfeedCore
import TwfeedEmulator
import TwfeedKit
import TwfeedSandbox
import TwfeedStore
import TwfeedTesting

/// The world `CostWeek` measures: the in-process emulator and the daemon's syncers and
/// outbox, driven minute by minute on one `ManualClock`.
///
/// Each simulated minute the emulator grows at the profile's rates (`advance`), then
/// every feed whose poll is due polls and the outbox flushes when due, in that order and
/// one after another, as the daemon's pollers and flusher would (they run concurrently
/// in the daemon, but nothing here depends on their interleaving).
final class CostSimulation {
    let clock: ManualClock
    let sandbox: Sandbox
    let emulator: Emulator
    let config: TwfeedConfig
    let database: AppDatabase
    let daemon: Daemon
    let profile: CostWeek.Profile
    /// False once the measured period is over: the world stops growing.
    var growing = true

    private var due: [Date]
    private var flushDue: Date
    private var carry = (home: 0.0, mentions: 0.0, reposts: 0.0)

    /// The simulation starts here, 2026-11-18 11:06 UTC: the first backfill, then the day
    /// to 00:00 UTC on 2026-11-20, where the measured days start.
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    init(profile: CostWeek.Profile, dialect: String, folder: String, config: [String: JSONValue] = [:]) throws {
        let clock = ManualClock(now: Self.start)
        self.clock = clock
        self.profile = profile
        sandbox = try Sandbox(
            folder: folder,
            dialect: dialect,
            tweetsPerFeed: 200,
            configure: {
                $0.extraUsers = profile.extraUsers
                $0.clock = { clock.now() }
            },
            config: config
        )
        emulator = sandbox.emulator
        do {
            self.config = try sandbox.config
            database = try AppDatabase.open(path: self.config.storage.database)
            daemon = try Daemon.build(
                config: self.config,
                credentials: try sandbox.credentials,
                database: database,
                dependencies: .init(clock: clock),
                logger: Bench.quiet
            )
        } catch {
            sandbox.stop()
            throw error
        }
        due = [Date](repeating: clock.now(), count: daemon.syncers.count)
        flushDue = clock.now()
    }

    func stop() { sandbox.stop() }

    /// The first 00:00 UTC the measured days start at: the second one after the start, so
    /// that the warm-up holds the first backfill and a whole day of polling.
    static var firstMidnight: Date {
        Date(timeIntervalSince1970: (start.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 + 2 * 86_400)
    }

    /// One simulated minute: the world grows, then the due feeds poll and the outbox flushes.
    func minute() async throws {
        advance()
        try await work()
    }

    /// Moves the clock a minute on and lets the world grow by a minute's share of the day.
    func advance() {
        clock.advance(by: 60)
        guard growing else { return }
        carry.home += profile.homePerDay / 1_440
        carry.mentions += profile.mentionsPerDay / 1_440
        carry.reposts += profile.repostsPerDay / 1_440
        if carry.home >= 1 {
            emulator.addTweets(to: .home, count: Int(carry.home))
            carry.home -= Double(Int(carry.home))
        }
        if carry.mentions >= 1 {
            emulator.addTweets(to: .mentions, count: Int(carry.mentions))
            carry.mentions -= Double(Int(carry.mentions))
        }
        while carry.reposts >= 1 {
            emulator.retweetOldTweet(Self.oldPostToRepost(emulator))
            carry.reposts -= 1
        }
    }

    /// The post someone reposts: an old one among the account's newest 100 (what every
    /// retweets poll reads the repost counts of), the oldest nobody reposted yet, else
    /// the oldest of them again. Older posts newly reposted are the weekly deep check's
    /// (`feeds.retweets.fullWalkHours`), which the week's figures do not measure.
    static func oldPostToRepost(_ emulator: Emulator) -> String? {
        let newest = emulator.ownTweetIDs().prefix(100).filter { emulator.tweet($0)?.retweetOfID == nil }
        return newest.reversed().first { emulator.tweet($0)?.retweetCount == 0 } ?? newest.last
    }

    /// Every due feed polls, then the outbox flushes if it is due (`outbox.flushIntervalSeconds`,
    /// 60, or sooner when the queue's head is due: a minute is the simulation's grain).
    func work() async throws {
        let now = clock.now()
        for (index, syncer) in daemon.syncers.enumerated() where now >= due[index] {
            let outcome = try await syncer.poll()
            if let error = outcome.error { FileHandle.standardError.write(Data("poll \(syncer.feed): \(error)\n".utf8)) }
            due[index] = outcome.nextPollAt
        }
        if let flusher = daemon.flusher, now >= flushDue {
            let pause = try await flusher.flush()
            let next: Date
            switch pause {
            case .until(let date): next = date
            case .unauthorized: next = clock.now().addingTimeInterval(3_600)
            }
            flushDue = min(next, clock.now().addingTimeInterval(config.outbox.flushIntervalSeconds))
        }
    }

    /// A status queued as `twfeed post` queues it, the outbox rung: it flushes at the next
    /// minute's work.
    func enqueue(_ text: String) async throws {
        _ = try await database.enqueue(text: text, replyTo: nil, now: clock.now())
        flushDue = clock.now()
    }

    /// The first backfill and polling up to `firstMidnight` (the clock is left a minute
    /// before it: the first measured minute's work is at 00:00).
    func warmUp() async throws {
        let firstMidnight = Self.firstMidnight
        while clock.now().timeIntervalSince1970 + 60 < firstMidnight.timeIntervalSince1970 { try await minute() }
        clock.advance(to: firstMidnight.addingTimeInterval(-60))
    }

    /// The ids a feed holds, as the emulator writes them.
    func stored(_ feed: Feed) async throws -> Set<String> {
        Set(try await database.memberIDs(feed).map(\.description))
    }
}
