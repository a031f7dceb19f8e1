import Foundation
import TwfeedSandbox

/// `twfeed-bench --memory [--runs N]`: the table's memory row alone, N times (3 unless
/// told), each in a fresh sandbox, and where each run's anonymous memory is by mapping,
/// so a change to it can be measured before and after without the whole table.
enum MemoryBench {
    static func run(arguments: [String], folder: String) async throws {
        var runs = 3
        if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.count, let count = Int(arguments[index + 1]), count > 0 {
            runs = count
        }
        let twfeed = (CommandLine.arguments[0] as NSString).deletingLastPathComponent + "/twfeed"
        guard FileManager.default.isExecutableFile(atPath: twfeed) else { throw BenchError("\(twfeed) is not built") }
        var anonymous: [Double] = []
        for run in 1...runs {
            let sandbox = try Sandbox(folder: "\(folder)/run-\(run)", tweetsPerFeed: 800)
            defer { sandbox.stop() }
            let settled = try await settledMemory(binary: twfeed, sandbox: sandbox)
            let memory = settled.memory
            anonymous.append(Double(memory.anonymous) / 1024)
            print(
                String(
                    format: "run %d: Anonymous %.1f MiB %@ | VmRSS %.1f MiB | PSS %.1f MiB | %@",
                    run,
                    Double(memory.anonymous) / 1024,
                    Double(memory.anonymous) / 1024 < MarkdownTable.anonymousTarget ? "PASS" : "FAIL",
                    Double(memory.rss) / 1024,
                    Double(memory.pss) / 1024,
                    settled.anonymousByMapping.map { String(format: "%@ %.1f", $0.0, Double($0.1) / 1024) }.joined(separator: ", ")
                )
            )
        }
        print(
            String(
                format: "Anonymous over %d runs: %.1f-%.1f MiB, median %.1f (target < %.0f MiB)",
                runs,
                anonymous.min()!,
                anonymous.max()!,
                Bench.median(anonymous),
                MarkdownTable.anonymousTarget
            )
        )
    }

    /// What one daemon measured: start to READY, then its memory once it has backfilled
    /// the sandbox's emulator and gone quiet (the table's row), and its anonymous memory
    /// by kind of mapping.
    struct Settled {
        let startToReady: Double
        let memory: DaemonProbe.Memory
        let anonymousByMapping: [(String, Int)]
    }

    static func settledMemory(binary: String, sandbox: Sandbox) async throws -> Settled {
        let daemon = try DaemonProbe(binary: binary, configPath: sandbox.configPath, folder: sandbox.folder)
        defer { daemon.stop() }
        try await DaemonProbe.settle(sandbox: sandbox)
        try await Task.sleep(for: .seconds(2))
        return Settled(startToReady: daemon.startToReady, memory: daemon.memory(), anonymousByMapping: anonymousByMapping(pid: daemon.pid))
    }

    /// Anonymous KiB per kind of mapping in /proc/PID/smaps, largest first: `[heap]` (the
    /// main malloc arena), `[stack]`, the unnamed mappings (other threads' malloc arenas
    /// and stacks, SQLite's and Swift's large blocks), and the writable pages of each file
    /// mapped (libraries' data and relocations).
    static func anonymousByMapping(pid: Int32) -> [(String, Int)] {
        // Read to the end: /proc files report no size, and smaps runs to hundreds of KiB.
        guard let data = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps")?.readDataToEndOfFile() else { return [] }
        let text = String(decoding: data, as: UTF8.self)
        var totals: [String: Int] = [:]
        var current = "?"
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                // `address perms offset dev inode [path]`
                current = fields.count >= 6 ? String(fields[5].split(separator: "/").last ?? fields[5]) : "unnamed"
            } else if fields.first == "Anonymous:", fields.count >= 2, let kib = Int(fields[1]), kib > 0 {
                totals[current, default: 0] += kib
            }
        }
        return totals.sorted { $0.value > $1.value }.prefix(8).map { ($0.key, $0.value) }
    }
}
