import Foundation
import Logging
import TwfeedEmulator
import TwfeedKit
import TwfeedSandbox
import TwfeedStore
import TwfeedTesting

/// What the profile image cache costs for a home feed of about 1,000 authors: requests
/// and bytes on the first run, on a restart, and at revalidation, and how a feed poll
/// fares meanwhile. `twfeed-bench --images [--concurrency N]`.
///
/// Requests and body bytes are counted by the emulator's image host (what went over
/// the wire, headers aside), not by the fetcher.
enum ImageCost {
    /// `--concurrency N` overrides `images.concurrency` (default 4).
    static var concurrency: Int {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: "--concurrency"), index + 1 < arguments.count,
            let value = Int(arguments[index + 1])
        else { return 4 }
        return value
    }

    static func run(folder: String) async throws {
        let sandbox = try Sandbox(
            folder: folder,
            dialect: "v2",
            tweetsPerFeed: 3200,
            configure: { $0.extraUsers = 1_500 },
            config: [
                "feeds": .object([
                    "mentions": .object(["enabled": .bool(false)]),
                    "retweets": .object(["enabled": .bool(false)]),
                ]),
                "images": .object([
                    "allowInsecureLoopback": .bool(true), "allowedHosts": .array([.string("127.0.0.1")]), "concurrency": .number(String(concurrency)),
                ]),
            ]
        )
        let emulator = sandbox.emulator
        defer { sandbox.stop() }
        let credentials = Credentials(sandbox.emulatorConfiguration.credentials)
        let config = try sandbox.config
        let quiet = Bench.quiet

        // First run: the home backfill, then every author's picture.
        let database = try AppDatabase.open(path: config.storage.database)
        let daemon = try Daemon.build(config: config, credentials: credentials, database: database, logger: quiet)
        let home = daemon.syncers.first { $0.feed == .home }!
        let backfill = try await home.poll()
        precondition(backfill.complete, "home backfill did not complete")
        let authors = try await database.authorsWithPictureCount()
        let fetcher = daemon.services.compactMap { $0 as? ImageFetcher }.first!
        // Idle home polls (one request, nothing new) alone, then while the cache fills.
        var idle: [Double] = []
        for _ in 0..<20 {
            let pollStarted = DispatchTime.now()
            _ = try await home.poll()
            idle.append(Bench.elapsed(since: pollStarted))
        }
        var started = DispatchTime.now()
        let fetching = Task { try await fetcher.fetchDue() }
        var busy: [Double] = []
        while busy.count < 200 {
            let pollStarted = DispatchTime.now()
            _ = try await home.poll()
            busy.append(Bench.elapsed(since: pollStarted))
            if busy.count >= 5, Bench.elapsed(since: started) > 0.5 { break }
        }
        let first = try await fetching.value
        let firstSeconds = Bench.elapsed(since: started)
        let firstRequests = emulator.requestCount(pathContains: "/profile_images/")
        let firstBytes = emulator.imageBodyBytesSent
        let totals = try await database.imageCacheTotals()
        precondition(first.fetched == authors && first.rejected == 0 && first.failed == 0, "first run: \(first)")
        print(
            String(
                format:
                    "images   first run: %d authors in %d home tweets -> %d requests, %.2f MB of image bodies, %d files (%.2f MB) in %.2f s (%.0f images/s, %d at a time)",
                authors,
                backfill.newTweets,
                firstRequests,
                Double(firstBytes) / 1e6,
                totals.files,
                Double(totals.bytes) / 1e6,
                firstSeconds,
                Double(first.fetched) / firstSeconds,
                config.images.concurrency
            )
        )

        print(
            String(
                format: "images   idle home poll: median %.1f ms alone, %.1f ms (max %.1f, %d polls) while the first run downloads",
                Bench.median(idle) * 1000,
                Bench.median(busy) * 1000,
                busy.max()! * 1000,
                busy.count
            )
        )

        // Restart: a new process would open the database and build the daemon again.
        let reopened = try AppDatabase.open(path: config.storage.database)
        let restarted = try Daemon.build(config: config, credentials: credentials, database: reopened, logger: quiet)
        _ = try await restarted.syncers.first { $0.feed == .home }!.poll()
        let restartFetcher = restarted.services.compactMap { $0 as? ImageFetcher }.first!
        started = DispatchTime.now()
        let second = try await restartFetcher.fetchDue()
        let secondSeconds = Bench.elapsed(since: started)
        print(
            String(
                format: "images   restart: %d requests, %d bytes (pass over %d authors in %.1f ms)",
                emulator.requestCount(pathContains: "/profile_images/") - firstRequests,
                emulator.imageBodyBytesSent - firstBytes,
                authors,
                secondSeconds * 1000
            )
        )
        precondition(second.requests == 0)

        // revalidateDays later: one conditional request per picture, each a 304.
        let later = ManualClock(now: Date().addingTimeInterval(config.images.revalidateDays * 86_400 + 60))
        let revalidating = try Daemon.build(
            config: config,
            credentials: credentials,
            database: reopened,
            dependencies: .init(clock: later),
            logger: quiet
        )
        let revalidateFetcher = revalidating.services.compactMap { $0 as? ImageFetcher }.first!
        let requestsBefore = emulator.requestCount(pathContains: "/profile_images/")
        let bytesBefore = emulator.imageBodyBytesSent
        started = DispatchTime.now()
        let third = try await revalidateFetcher.fetchDue()
        let thirdSeconds = Bench.elapsed(since: started)
        let statuses = Set(emulator.requests.filter { $0.endpoint == "images" }.suffix(third.requests).map(\.status))
        print(
            String(
                format: "images   after revalidateDays (%.0f): %d requests, %d not modified (statuses %@), %d body bytes, in %.2f s",
                config.images.revalidateDays,
                emulator.requestCount(pathContains: "/profile_images/") - requestsBefore,
                third.notModified,
                statuses.sorted().map(String.init).joined(separator: ","),
                emulator.imageBodyBytesSent - bytesBefore,
                thirdSeconds
            )
        )
    }
}
