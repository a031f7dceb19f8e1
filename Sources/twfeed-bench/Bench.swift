import Foundation
import Logging
import TwfeedCore
import TwfeedEmulator
import TwfeedKit
import TwfeedSandbox
import TwfeedStore

/// Measures what docs/PERFORMANCE.md reports. Run in release:
///
///     swift build -c release && .build/release/twfeed-bench
///
/// Every figure comes with the one it should be compared with, measured in the same
/// run on the same machine: the backfill rate against the raw SQLite insert rate of the
/// same rows, `twfeed post` against the bare process start of `twfeed --version`.
@main
struct Bench {
    static func main() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-bench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        if let index = CommandLine.arguments.firstIndex(of: "--poll-loop") {
            try await PollGrowth.child(arguments: Array(CommandLine.arguments[(index + 1)...]))
            return
        }
        if CommandLine.arguments.contains("--table") {
            await exitOnError { try await TableBench.run(arguments: CommandLine.arguments, folder: folder) }
            return
        }
        if CommandLine.arguments.contains("--memory") {
            await exitOnError { try await MemoryBench.run(arguments: CommandLine.arguments, folder: "\(folder)/memory") }
            return
        }
        if CommandLine.arguments.contains("--archive-store") {
            try await ArchiveStoreBench.run(folder: "\(folder)/archive", arguments: CommandLine.arguments)
            return
        }
        if CommandLine.arguments.contains("--page-cost") {
            try await PageCost.run()
            return
        }
        if CommandLine.arguments.contains("--images") {
            try await ImageCost.run(folder: "\(folder)/images")
            return
        }
        if CommandLine.arguments.contains("--cost-week") {
            let passed: Bool
            do {
                passed = try await CostWeek.run(folder: "\(folder)/cost-week", arguments: CommandLine.arguments)
            } catch {
                FileHandle.standardError.write(Data("twfeed-bench: \(error)\n".utf8))
                try? FileManager.default.removeItem(atPath: folder)
                exit(error is CostWeek.UsageError ? 64 : 1)
            }
            if !passed {
                try? FileManager.default.removeItem(atPath: folder)
                exit(1)
            }
            return
        }
        if CommandLine.arguments.contains("--graph-pages") {
            let passed: Bool
            do {
                passed = try await GraphPages.run(arguments: CommandLine.arguments, folder: "\(folder)/graph-pages")
            } catch {
                FileHandle.standardError.write(Data("twfeed-bench: \(error)\n".utf8))
                try? FileManager.default.removeItem(atPath: folder)
                exit(1)
            }
            if !passed {
                try? FileManager.default.removeItem(atPath: folder)
                exit(1)
            }
            return
        }
        if let index = CommandLine.arguments.firstIndex(of: "--archive-parse-child") {
            try await ArchiveParse.child(path: CommandLine.arguments[index + 1])
            return
        }
        if CommandLine.arguments.contains("--archive-import") {
            if !(try ArchiveImportBench.run(arguments: CommandLine.arguments, folder: "\(folder)/archive-import")) { exit(1) }
            return
        }
        if CommandLine.arguments.contains("--archive-parse") {
            try await ArchiveParse.run(arguments: CommandLine.arguments, folder: "\(folder)/archive-parse")
            return
        }
        if CommandLine.arguments.contains("--cache-cost") {
            try await CacheCost.run(folder: "\(folder)/cache-cost", arguments: CommandLine.arguments)
            return
        }
        print("twfeed-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB")
        for dialect in ["v2", "v1.1"] {
            let result = try await backfill(dialect: dialect, folder: "\(folder)/\(dialect)")
            print(
                String(
                    format:
                        "backfill %-4@  %5d tweets in %6.3f s over %3d requests = %7.0f tweets/s | raw SQLite insert of the same rows %8.0f tweets/s (ratio %.2f) | idle poll: %d requests for %d feeds",
                    dialect,
                    result.stored,
                    result.seconds,
                    result.requests,
                    result.rate,
                    result.rawRate,
                    result.rate / result.rawRate,
                    result.idleRequests,
                    result.feeds
                )
            )
        }
        try await posting(folder: "\(folder)/post")
    }

    /// Runs a mode; its error ends the bench with one line and exit status 1.
    static func exitOnError(_ mode: @Sendable () async throws -> Void) async {
        do {
            try await mode()
        } catch {
            FileHandle.standardError.write(Data("twfeed-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    static let quiet = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }

    /// A world: emulator, config file, credentials (the daemon's database goes in the same folder).
    static func world(dialect: String, folder: String, tweets: Int) throws -> (Emulator, TwfeedConfig, Credentials) {
        let sandbox = try Sandbox(
            folder: folder,
            dialect: dialect,
            tweetsPerFeed: tweets,
            config: ["outbox": .object(["flushIntervalSeconds": .number("60")])]
        )
        do {
            return (sandbox.emulator, try sandbox.config, try sandbox.credentials)
        } catch {
            sandbox.stop()
            throw error
        }
    }

    /// One backfill and the raw insert of the same rows, measured in the same run.
    struct Backfill {
        let stored: Int
        let seconds: Double
        let requests: Int
        let rawSeconds: Double
        let idleRequests: Int
        let feeds: Int
        var rate: Double { Double(stored) / seconds }
        var rawRate: Double { Double(stored) / rawSeconds }
    }

    static func backfill(dialect: String, folder: String) async throws -> Backfill {
        let (emulator, config, credentials) = try world(dialect: dialect, folder: folder, tweets: 3200)
        defer { emulator.stop() }
        let database = try AppDatabase.open(path: config.storage.database)
        let daemon = try Daemon.build(config: config, credentials: credentials, database: database, logger: quiet)

        // The feeds poll concurrently, as the daemon's services do.
        let started = DispatchTime.now()
        let stored = try await withThrowingTaskGroup(of: Int.self) { group in
            for syncer in daemon.syncers {
                group.addTask {
                    let outcome = try await syncer.poll()
                    precondition(outcome.complete, "backfill of \(syncer.feed) did not complete: \(String(describing: outcome.error))")
                    return outcome.newTweets
                }
            }
            return try await group.reduce(0, +)
        }
        let seconds = elapsed(since: started)
        let requests = emulator.requests.count

        // The same rows, inserted straight into a fresh database in pages of 100.
        var pages: [(Feed, TimelinePage)] = []
        for feed in Feed.polled {
            let items = try await database.feedItems(feed, limit: 10_000)
            for chunk in stride(from: 0, to: items.count, by: 100) {
                let slice = items[chunk..<min(chunk + 100, items.count)]
                pages.append(
                    (
                        feed,
                        TimelinePage(
                            tweets: slice.map(\.tweet),
                            authors: slice.compactMap(\.author),
                            nextPageToken: nil
                        )
                    )
                )
            }
        }
        let raw = try AppDatabase.open(path: "\(folder)/raw.sqlite")
        let rawStarted = DispatchTime.now()
        var state = SyncState(feed: .home)
        for (feed, page) in pages {
            state.feed = feed
            try await raw.storePage(page, feed: feed, state: state, now: Date())
        }
        let rawSeconds = elapsed(since: rawStarted)

        // Nothing new: one request per feed.
        let before = emulator.requests.count
        for syncer in daemon.syncers { try await syncer.poll() }
        let idle = emulator.requests.count - before

        return Backfill(
            stored: stored,
            seconds: seconds,
            requests: requests,
            rawSeconds: rawSeconds,
            idleRequests: idle,
            feeds: daemon.syncers.count
        )
    }

    static func posting(folder: String) async throws {
        let (emulator, config, _) = try world(dialect: "v2", folder: folder, tweets: 10)
        defer { emulator.stop() }
        let binary = (CommandLine.arguments[0] as NSString).deletingLastPathComponent + "/twfeed"
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("post: skipped, \(binary) not built (swift build -c release)")
            return
        }
        let configPath = config.sourcePath!

        // Process start alone, then `post` (validate, open the database, durable insert).
        let runs = 20
        var baseline: [Double] = []
        var post: [Double] = []
        for index in 0..<runs {
            baseline.append(try time(binary, ["--version"]))
            post.append(try time(binary, ["post", "--config", configPath, "bench status \(index) while stopped"]))
        }
        print(
            String(
                format: "post     median %5.1f ms wall (process start alone: %5.1f ms), %d runs, daemon stopped",
                median(post) * 1000,
                median(baseline) * 1000,
                runs
            )
        )

        // Enqueue to emulator with the daemon running.
        let daemonProcess = Process()
        daemonProcess.executableURL = URL(fileURLWithPath: binary)
        daemonProcess.arguments = ["run", "--config", configPath]
        daemonProcess.standardError = FileHandle.nullDevice
        try daemonProcess.run()
        defer {
            daemonProcess.terminate()
            daemonProcess.waitUntilExit()
        }
        // Wait for the statuses queued above to drain: the daemon is up.
        while emulator.postedStatuses.count < runs { try await Task.sleep(for: .milliseconds(20)) }
        var latencies: [Double] = []
        for index in 0..<10 {
            let text = "bench status \(index) while running"
            let started = DispatchTime.now()
            _ = try time(binary, ["post", "--config", configPath, text])
            while !emulator.postedStatuses.contains(where: { $0.text == text }) {
                try await Task.sleep(for: .milliseconds(1))
            }
            latencies.append(elapsed(since: started))
        }
        print(
            String(
                format: "post     enqueue to emulator with the daemon running: median %5.1f ms, max %5.1f ms (10 statuses)",
                median(latencies) * 1000,
                latencies.max()! * 1000
            )
        )
    }

    static func time(_ binary: String, _ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let started = DispatchTime.now()
        try process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "\(arguments) exited \(process.terminationStatus)")
        return elapsed(since: started)
    }

    static func elapsed(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
