import Foundation
import TwfeedSandbox
import TwfeedStore

/// The longest time a writer waits while the daemon prunes: a copy of an archive, the
/// daemon started on it with `storage.keepDays`, and meanwhile another connection
/// taking the write lock (`BEGIN IMMEDIATE`, busy timeout 0, retried every 0.2 ms) every
/// 5 ms, as a poller's commit would. The longest wait is the longest write transaction
/// a poller or `twfeed post` could meet. Until `prune.done` is logged.
enum PruneProbe {
    struct Result {
        let longestWait: Double
        let locks: Int
        let bytesBefore: Int
        let bytesAfter: Int
        let tweetsBefore: Int
        let tweetsAfter: Int
    }

    /// Nil when this build has no retention (the config key is refused, or no
    /// `prune.done` within `timeout`).
    static func measure(binary: String, archive: String, folder: String, keepDays: Int, timeout: Double = 300) async throws -> Result? {
        let sandbox = try Sandbox(folder: folder, tweetsPerFeed: 10)
        defer { sandbox.stop() }
        let copy = "\(folder)/pruned.sqlite"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: archive, toPath: copy)
        let logPath = "\(folder)/twfeed.log"
        try sandbox.writeConfig([
            "storage": .object([
                "database": .string(copy), "imageCache": .string(sandbox.imageCachePath),
                "keepDays": .number("\(keepDays)"),
            ]),
            "log": .object(["file": .string(logPath), "level": .string("info")]),
        ])
        let bytesBefore = SyntheticArchive.fileBytes(copy)
        let tweetsBefore = try await count(copy)
        let probe = WriteLockProbe(path: copy)
        probe.start()
        let daemon: DaemonProbe
        do {
            daemon = try DaemonProbe(binary: binary, configPath: sandbox.configPath, folder: folder)
        } catch {
            probe.stop()
            return nil
        }
        let started = DispatchTime.now()
        var done = false
        // Until `prune.done`, then until the log has been still for 2 s (a prune may
        // log more than once).
        var lastLog = ""
        var stillSince = DispatchTime.now()
        while Bench.elapsed(since: started) < timeout {
            try await Task.sleep(for: .milliseconds(100))
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if log != lastLog {
                lastLog = log
                stillSince = .now()
            }
            done = log.contains("prune.done")
            if done, Bench.elapsed(since: stillSince) >= 2 { break }
        }
        let (longest, locks) = probe.stop()
        daemon.stop()
        guard done else { return nil }
        // The pruner's own account of its transactions, beside the probe's figure.
        for line in lastLog.split(separator: "\n") where line.contains("prune.") { TableBench.progress(String(line)) }
        return Result(
            longestWait: longest,
            locks: locks,
            bytesBefore: bytesBefore,
            bytesAfter: SyntheticArchive.fileBytes(copy),
            tweetsBefore: tweetsBefore,
            tweetsAfter: try await count(copy)
        )
    }

    static func count(_ path: String) async throws -> Int {
        try await StoreReader.open(path: path).storedTweetCount()
    }
}

/// Takes and releases the write lock in a loop in a task of its own, recording the
/// longest wait for it.
final class WriteLockProbe: @unchecked Sendable {
    private let path: String
    private let lock = NSLock()
    private var running = true
    private var longest = 0.0
    private var locks = 0
    private let finished = DispatchSemaphore(value: 0)

    init(path: String) { self.path = path }

    func start() {
        Task.detached { [self] in
            // A second writer on the same file, as another process would be: each write
            // transaction waits in SQLite's busy handler while the pruner holds the lock.
            guard let database = try? AppDatabase.open(path: path) else {
                finished.signal()
                return
            }
            while lock.withLock({ running }) {
                guard let waited = try? await database.writeLockWait() else { break }
                lock.withLock {
                    longest = max(longest, waited)
                    locks += 1
                }
                try? await Task.sleep(for: .milliseconds(5))
            }
            finished.signal()
        }
    }

    /// Stops the loop: the longest wait in seconds and how many times it took the lock.
    @discardableResult
    func stop() -> (Double, Int) {
        lock.withLock { running = false }
        finished.wait()
        return lock.withLock { (longest, locks) }
    }
}
