import Foundation
import TwfeedSandbox

/// `twfeed-bench --table [--quick] [--sizes N,N] [--prune-only] [--cache DIR]`: everything issue 9 asks to measure,
/// as one markdown table (what `scripts/bench` prints and docs/PERFORMANCE.md holds).
/// Progress goes to stderr; the table alone to stdout.
enum TableBench {
    struct Options {
        var sizes = [10_000, 100_000, 1_000_000]
        var runs = 15
        var pollRequests = 100_000
        var pollSeconds = 120.0
        var cache = ".bench-cache"
        /// Per command run; a run over it is killed and reported as "> budget".
        var budget = 60.0

        init(arguments: [String]) {
            if arguments.contains("--quick") {
                sizes = [10_000]
                runs = 5
                pollRequests = 10_000
                pollSeconds = 30
            }
            if let index = arguments.firstIndex(of: "--cache"), index + 1 < arguments.count { cache = arguments[index + 1] }
            // `--sizes 10000,1000000`: other archive sizes than the default three.
            if let index = arguments.firstIndex(of: "--sizes"), index + 1 < arguments.count {
                let chosen = arguments[index + 1].split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
                if !chosen.isEmpty { sizes = chosen }
            }
        }
    }

    /// One size's figures; nil where a command ran over the budget or does not exist.
    struct SizeRow {
        var floor: Double?
        var feed: Double?
        var status: Double?
        var search: Double?
        var searchExists = true
        var dumpRate: Double?
        var bytesPerTweet = 0.0
    }

    static func run(arguments: [String], folder: String) async throws {
        let options = Options(arguments: arguments)
        let bench = CommandLine.arguments[0]
        let twfeed = (bench as NSString).deletingLastPathComponent + "/twfeed"
        guard FileManager.default.isExecutableFile(atPath: twfeed) else { throw BenchError("\(twfeed) is not built") }
        if arguments.contains("--prune-only") {
            // One figure, for working on the pruner: the write-lock wait on the largest
            // archive of the chosen sizes.
            let archive = try await SyntheticArchive.database(size: options.sizes.last!, cache: options.cache)
            guard let prune = try await PruneProbe.measure(binary: twfeed, archive: archive.path, folder: "\(folder)/prune", keepDays: 180)
            else { throw BenchError("no prune.done") }
            print(
                String(
                    format: "longest write-lock wait while pruning %d of %d tweets: %.1f ms (%d locks taken)",
                    prune.tweetsBefore - prune.tweetsAfter,
                    prune.tweetsBefore,
                    prune.longestWait * 1000,
                    prune.locks
                )
            )
            return
        }
        let searchExists = try hasCommand(twfeed, "search")

        var rows: [SizeRow] = []
        var archives: [SyntheticArchive.Built] = []
        for size in options.sizes {
            progress("archive of \(size) tweets")
            let archive = try await SyntheticArchive.database(size: size, cache: options.cache)
            archives.append(archive)
            progress("timing commands at \(size)")
            rows.append(
                try commands(
                    twfeed: twfeed,
                    archive: archive,
                    folder: "\(folder)/size-\(size)",
                    searchExists: searchExists,
                    options: options
                )
            )
        }

        progress("backfill from the emulator and the raw insert")
        let backfill = try await Bench.backfill(dialect: "v2", folder: "\(folder)/backfill")
        progress("daemon start to READY and idle memory")
        let sandbox = try Sandbox(folder: "\(folder)/daemon", tweetsPerFeed: 800)
        defer { sandbox.stop() }
        let settled = try await MemoryBench.settledMemory(binary: twfeed, sandbox: sandbox)
        let memory = settled.memory
        var readyTimes = [settled.startToReady]
        for _ in 1..<min(options.runs, 5) {
            let again = try DaemonProbe(binary: twfeed, configPath: sandbox.configPath, folder: sandbox.folder)
            readyTimes.append(again.startToReady)
            again.stop()
        }
        progress("RSS growth over \(options.pollRequests) poll requests (at most \(Int(options.pollSeconds)) s)")
        let growth = try PollGrowth.measure(
            bench: bench,
            folder: "\(folder)/polls",
            requests: options.pollRequests,
            seconds: options.pollSeconds
        )
        let pruneArchive = archives.last(where: { $0.tweets <= 100_000 }) ?? archives[0]
        progress("pruning a copy of the \(pruneArchive.tweets)-tweet archive (keepDays 180)")
        let prune = try await PruneProbe.measure(binary: twfeed, archive: pruneArchive.path, folder: "\(folder)/prune", keepDays: 180)

        print(
            MarkdownTable.render(
                sizes: archives.map(\.tweets),
                rows: rows,
                runs: options.runs,
                backfill: backfill,
                memory: memory,
                ready: Bench.median(readyTimes),
                readyRuns: readyTimes.count,
                growth: growth,
                prune: prune,
                searchWord: SyntheticArchive.searchWord
            )
        )
    }

    /// The reader commands against one archive, interleaved run by run so drift in the
    /// machine's load spreads over all of them alike.
    static func commands(
        twfeed: String,
        archive: SyntheticArchive.Built,
        folder: String,
        searchExists: Bool,
        options: Options
    ) throws -> SizeRow {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = "\(folder)/config.json"
        try Data(
            """
            {"credentials": "\(folder)/credentials.json",
             "storage": {"database": "\(archive.path)", "imageCache": "\(folder)/images"}}
            """.utf8
        ).write(to: URL(fileURLWithPath: config))
        var commands: [(String, [String])] = [
            ("floor", ["--version"]),
            ("feed", ["feed", "home", "--limit", "50", "--json", "--config", config]),
            ("status", ["status", "--json", "--config", config]),
        ]
        if searchExists {
            commands.append(("search", ["search", SyntheticArchive.searchWord, "--json", "--config", config]))
        }
        var times: [String: [Double]] = [:]
        var overBudget: Set<String> = []
        for _ in 0..<options.runs {
            for (name, arguments) in commands where !overBudget.contains(name) {
                let run = try ProcessTimer.run(twfeed, arguments, budget: options.budget)
                if run.timedOut {
                    overBudget.insert(name)
                    continue
                }
                // `status` exits 3 when the daemon is not running (LSB), as here.
                guard run.status == 0 || (name == "status" && run.status == 3) else {
                    throw BenchError("twfeed \(arguments.joined(separator: " ")) exited \(run.status)")
                }
                times[name, default: []].append(run.seconds)
            }
        }
        func median(_ name: String) -> Double? { times[name].map(Bench.median) }
        var row = SizeRow(
            floor: median("floor"),
            feed: median("feed"),
            status: median("status"),
            search: median("search"),
            searchExists: searchExists
        )
        let dump = try ProcessTimer.median(
            twfeed,
            ["feed", "home", "--limit", "\(archive.homeTweets)", "--json", "--config", config],
            runs: 3,
            budget: options.budget
        )
        row.dumpRate = dump.map { Double(archive.homeTweets) / $0 }
        row.bytesPerTweet = Double(archive.bytes) / Double(archive.tweets)
        return row
    }

    /// Whether this build of twfeed has the subcommand (features land in parallel):
    /// ArgumentParser answers `--help` after an unknown one with the root's help.
    static func hasCommand(_ twfeed: String, _ name: String) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: twfeed)
        process.arguments = [name, "--help"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let help = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return help.contains("twfeed \(name)")
    }

    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("bench: \(line)\n".utf8))
    }
}
