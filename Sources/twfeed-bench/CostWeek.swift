import Foundation
import TwfeedBilling
import TwfeedCore
import TwfeedEmulator
import TwfeedKit
import TwfeedSandbox
import TwfeedStore
import TwfeedTesting

/// What a week of the defaults costs, against the in-process emulator's bill and the
/// floor: `twfeed-bench --cost-week [--dialect v2|v1.1] [--quiet] [--days N]`.
///
/// One clock (a `ManualClock`) drives the daemon and the emulator. After a day of warm-up
/// (the first backfill, paid once in a lifetime) the measured days start at 00:00 UTC with
/// the emulator's bill reset. Each simulated minute the emulator grows (busy: 2,000 home
/// posts a day from about 300 authors, 50 mentions, 20 reposts of old own posts; quiet:
/// 50, 2 and 1) and every feed whose poll is due polls, as the daemon's pollers would.
///
/// The floor is what the feeds made necessary: each post that entered a feed paid once
/// (at its feed's price), each post it references once a day, and each author of those
/// once a day it appears (what expanding the authors would cost).
enum CostWeek {
    struct Profile {
        var name: String
        var homePerDay: Double
        var mentionsPerDay: Double
        var repostsPerDay: Double
        var extraUsers: Int
    }

    static let busy = Profile(name: "busy", homePerDay: 2_000, mentionsPerDay: 50, repostsPerDay: 20, extraUsers: 300)
    static let quiet = Profile(name: "quiet", homePerDay: 50, mentionsPerDay: 2, repostsPerDay: 1, extraUsers: 0)

    static func run(folder: String, arguments: [String]) async throws {
        func value(_ name: String) -> String? {
            arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
        }
        let dialect = value("--dialect") ?? "v2"
        let days = value("--days").flatMap(Int.init) ?? 7
        let profile = arguments.contains("--quiet") ? quiet : busy
        try await measure(profile: profile, dialect: dialect, days: days, folder: folder)
    }

    static func measure(profile: Profile, dialect: String, days: Int, folder: String) async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))
        let sandbox = try Sandbox(
            folder: folder,
            dialect: dialect,
            tweetsPerFeed: 200,
            configure: {
                $0.extraUsers = profile.extraUsers
                $0.clock = { clock.now() }
            }
        )
        defer { sandbox.stop() }
        let emulator = sandbox.emulator
        let config = try sandbox.config
        let database = try AppDatabase.open(path: config.storage.database)
        let daemon = try Daemon.build(
            config: config,
            credentials: try sandbox.credentials,
            database: database,
            dependencies: .init(clock: clock),
            logger: Bench.quiet
        )
        let syncers = daemon.syncers
        var due = [Date](repeating: clock.now(), count: syncers.count)
        var budget = (home: 0.0, mentions: 0.0, reposts: 0.0)

        /// One simulated minute: the world grows, then every due feed polls.
        func minute() async throws {
            clock.advance(by: 60)
            budget.home += profile.homePerDay / 1_440
            budget.mentions += profile.mentionsPerDay / 1_440
            budget.reposts += profile.repostsPerDay / 1_440
            if budget.home >= 1 {
                emulator.addTweets(to: .home, count: Int(budget.home))
                budget.home -= Double(Int(budget.home))
            }
            if budget.mentions >= 1 {
                emulator.addTweets(to: .mentions, count: Int(budget.mentions))
                budget.mentions -= Double(Int(budget.mentions))
            }
            while budget.reposts >= 1 {
                emulator.retweetOldTweet()
                budget.reposts -= 1
            }
            for (index, syncer) in syncers.enumerated() where clock.now() >= due[index] {
                let outcome = try await syncer.poll()
                if let error = outcome.error { FileHandle.standardError.write(Data("poll \(syncer.feed): \(error)\n".utf8)) }
                due[index] = outcome.nextPollAt ?? clock.now().addingTimeInterval(60)
            }
        }

        // Warm-up: the first backfill, then to the next 00:00 UTC.
        let started = DispatchTime.now()
        let firstMidnight = (clock.now().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 + 2 * 86_400
        while clock.now().timeIntervalSince1970 + 60 < firstMidnight { try await minute() }
        clock.advance(to: Date(timeIntervalSince1970: firstMidnight - 60))
        emulator.resetBill()
        let firstDay = BillingCycle.utcDay(of: clock.now().addingTimeInterval(60))

        var floor = MicroUSD.zero
        var floorAuthors = MicroUSD.zero
        var members = try Dictionary(uniqueKeysWithValues: Feed.allCases.map { ($0, Set(try database.memberIDs($0))) })
        let prices = config.api.prices
        for _ in 0..<days {
            for _ in 0..<1_440 { try await minute() }
            // What entered the feeds this UTC day, priced as the floor.
            var postReads: Set<String> = []
            var ownedReads: Set<String> = []
            var referenced: Set<String> = []
            var authors: Set<String> = []
            for feed in Feed.allCases {
                let now = Set(try database.memberIDs(feed))
                for id in now.subtracting(members[feed] ?? []) {
                    let text = id.description
                    if feed == .mentions && config.api.ownsApp { ownedReads.insert(text) } else { postReads.insert(text) }
                    guard let tweet = emulator.tweet(text) else { continue }
                    authors.insert(tweet.authorID)
                    for reference in [tweet.retweetOfID, tweet.quotedID, tweet.inReplyToID].compactMap({ $0 }) {
                        guard let original = emulator.tweet(reference) else { continue }
                        referenced.insert(reference)
                        authors.insert(original.authorID)
                    }
                }
                members[feed] = now
            }
            referenced.subtract(postReads)
            let authorCost = prices.price(of: .userRead) * authors.count
            floorAuthors = floorAuthors + authorCost
            floor =
                floor + prices.price(of: .postRead) * (postReads.count + referenced.count)
                + prices.price(of: .ownedRead) * ownedReads.count + authorCost
        }
        let seconds = Bench.elapsed(since: started)

        let rows = try await database.spend(since: firstDay)
        let ledger = rows.reduce(MicroUSD.zero) { $0 + $1.cost }
        let bill = emulator.bill()
        print("cost-week \(profile.name) \(dialect): \(days) days after a day of warm-up, defaults (\(Int(seconds)) s to simulate)")
        var bySource: [BillingSource: (resources: [BillableKind: Int], cost: MicroUSD)] = [:]
        for row in rows {
            bySource[row.source, default: ([:], .zero)].resources[row.kind, default: 0] += row.resources
            bySource[row.source, default: ([:], .zero)].cost = bySource[row.source, default: ([:], .zero)].cost + row.cost
        }
        for source in BillingSource.allCases {
            guard let entry = bySource[source] else { continue }
            let counts = BillableKind.allCases.compactMap { kind in entry.resources[kind].map { "\(kind.rawValue) \($0)" } }
            print("  ledger \(source.rawValue): \(entry.cost.formatted) (\(counts.joined(separator: ", ")))")
        }
        for endpoint in EmulatorEndpoint.allCases {
            let tally = bill.endpoint(endpoint)
            guard tally.requests > 0 else { continue }
            print(
                "  emulator \(endpoint.rawValue): $\(tally.usd) over \(tally.requests) requests "
                    + "(post \(tally.count(.postRead)), owned \(tally.count(.ownedRead)), user \(tally.count(.userRead)), repeats \(tally.deduplicated))"
            )
        }
        let ratio = Double(ledger.micros) / Double(max(floor.micros, 1))
        print(
            "  ledger \(ledger.formatted) | emulator's bill $\(bill.total.usd) | floor \(floor.formatted) (authors \(floorAuthors.formatted)) | ratio \(String(format: "%.3f", ratio))"
        )
        print(
            "  per day: ledger \(MicroUSD(micros: ledger.micros / Int64(days)).formatted), floor \(MicroUSD(micros: floor.micros / Int64(days)).formatted); "
                + "per 30 days: ledger \(MicroUSD(micros: ledger.micros * 30 / Int64(days)).formatted)"
        )
        if Int(ledger.micros) != bill.total.micros { print("  MISMATCH: the ledger is not the emulator's bill") }
    }
}
