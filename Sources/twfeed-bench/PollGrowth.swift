import Foundation
import TwfeedCore
import TwfeedKit
import TwfeedSandbox
import TwfeedStore

/// Memory growth of the poll loop over many requests. The config's poll interval has a
/// floor of 15 s, so instead of waiting for the daemon's timers a child process (this
/// binary, `--poll-loop`) builds the daemon's syncers and drives their polls back to
/// back; the parent runs the emulator, so the emulator's own request log does not count.
enum PollGrowth {
    struct Result {
        let requests: Int
        let growthKiB: Int
        let seconds: Double

        /// KiB per 100,000 requests.
        var kibPer100k: Double { Double(growthKiB) * 100_000 / Double(max(requests, 1)) }
    }

    /// Parent side: an emulator without rate limits and a child polling it.
    static func measure(bench: String, folder: String, requests: Int, seconds: Double) throws -> Result {
        let sandbox = try Sandbox(folder: folder, tweetsPerFeed: 200)
        defer { sandbox.stop() }
        for endpoint in ["home", "mentions", "retweets", "me"] { sandbox.emulator.setRateLimit(1 << 40, for: endpoint) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: bench)
        child.arguments = ["--poll-loop", sandbox.configPath, "\(requests)", "\(seconds)"]
        let pipe = Pipe()
        child.standardOutput = pipe
        try child.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard child.terminationStatus == 0, fields.count == 4 else {
            throw BenchError("poll loop failed (\(child.terminationStatus)): \(output)")
        }
        return Result(requests: Int(fields[0]), growthKiB: Int(fields[2] - fields[1]), seconds: fields[3])
    }

    /// Child side: backfill, warm up, then poll until `requests` more requests or
    /// `seconds` passed. Prints "requests rssBeforeKiB rssAfterKiB seconds".
    static func child(arguments: [String]) async throws {
        let configPath = arguments[0]
        let target = Int(arguments[1]) ?? 100_000
        let limit = Double(arguments[2]) ?? 120
        let config = try ConfigLoader.load(explicit: configPath)
        let credentials = try Credentials.load(from: config.credentials)
        let database = try AppDatabase.open(path: config.storage.database)
        let daemon = try Daemon.build(config: config, credentials: credentials, database: database, logger: Bench.quiet)
        var done = 0
        func round() async throws {
            for syncer in daemon.syncers { done += try await syncer.poll().requests }
        }
        // Backfill and a warm-up, so caches, statement caches and pools are full.
        while done < 3_000 { try await round() }
        let before = DaemonProbe.kibibytes("VmRSS", in: "/proc/self/status")
        done = 0
        let started = DispatchTime.now()
        while done < target, Bench.elapsed(since: started) < limit { try await round() }
        let seconds = Bench.elapsed(since: started)
        let after = DaemonProbe.kibibytes("VmRSS", in: "/proc/self/status")
        print("\(done) \(before) \(after) \(seconds)")
    }
}
