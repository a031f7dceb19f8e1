import Foundation
import TwfeedReader
import TwfeedTesting

/// `twfeed-bench --cache-cost [--runs N]`: `twfeed status` and the reader's `/home` (from
/// `twfeed serve`) on the same 10k-tweet archive, with an image cache of 50 files and of
/// 50,000. The status once walked the cache folder on every call and every page; the
/// counts now come from the store, so the two columns must agree within noise.
enum CacheCost {
    static let cacheSizes = [50, 50_000]

    struct Row {
        var files: Int
        var status: Double
        var home: Double
    }

    static func run(folder: String, arguments: [String]) async throws {
        let bench = CommandLine.arguments[0]
        let twfeed = (bench as NSString).deletingLastPathComponent + "/twfeed"
        let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 21
        let archive = try await SyntheticArchive.database(size: 10_000, cache: ".bench-cache")
        var configs: [Int: (config: String, port: Int)] = [:]
        for files in cacheSizes {
            configs[files] = try prepare(files: files, archive: archive.path, folder: "\(folder)/cache-\(files)")
        }
        // Interleaved, run by run, so drift in the machine's load touches both alike.
        var status: [Int: [Double]] = [:]
        for _ in 0..<runs {
            for files in cacheSizes {
                let run = try ProcessTimer.run(twfeed, ["status", "--json", "--config", configs[files]!.config])
                guard run.status == 0 || run.status == 3 else { throw BenchError("twfeed status exited \(run.status)") }
                status[files, default: []].append(run.seconds)
            }
        }
        // Both readers up at once, and their requests interleaved too.
        var servers: [Process] = []
        defer {
            for server in servers {
                server.terminate()
                server.waitUntilExit()
            }
        }
        var bearers: [Int: String?] = [:]
        for files in cacheSizes {
            let server = Process()
            server.executableURL = URL(fileURLWithPath: twfeed)
            server.arguments = ["serve", "--config", configs[files]!.config]
            server.standardOutput = FileHandle.nullDevice
            server.standardError = FileHandle.nullDevice
            try server.run()
            servers.append(server)
            try await waitForReader(port: configs[files]!.port)
            // Signed in as a script is: the secret the reader made beside the database.
            let secret = try ReaderSecret.load(path: "\((configs[files]!.config as NSString).deletingLastPathComponent)/\(ReaderSecret.fileName)")
            bearers[files] = secret?.value
            _ = try await RawHTTP.$bearer.withValue(bearers[files]!) { try await RawHTTP.request(port: configs[files]!.port, "/home") }  // templates and the store warm
        }
        var home: [Int: [Double]] = [:]
        for _ in 0..<runs {
            for files in cacheSizes {
                let started = DispatchTime.now()
                let page = try await RawHTTP.$bearer.withValue(bearers[files]!) { try await RawHTTP.request(port: configs[files]!.port, "/home") }
                guard page.status == 200 else { throw BenchError("/home answered \(page.status)") }
                home[files, default: []].append(Bench.elapsed(since: started))
            }
        }
        let rows = cacheSizes.map { Row(files: $0, status: Bench.median(status[$0]!), home: Bench.median(home[$0]!)) }
        print("| image cache (10k tweets, release, median of \(runs)) | `twfeed status --json` | `/home` (`twfeed serve`) |")
        print("|---|---|---|")
        for row in rows {
            print(String(format: "| %d files | %.1f ms | %.1f ms |", row.files, row.status * 1000, row.home * 1000))
        }
        let status50k = rows[1].status - rows[0].status
        let home50k = rows[1].home - rows[0].home
        print(String(format: "| 50,000 − 50 | %+.1f ms | %+.1f ms |", status50k * 1000, home50k * 1000))
    }

    /// A copy of the archive, a cache folder of `files` picture files laid out as the
    /// image cache lays them (two-character folders), and a config serving on a free port.
    static func prepare(files: Int, archive: String, folder: String) throws -> (config: String, port: Int) {
        let manager = FileManager.default
        try? manager.removeItem(atPath: folder)
        try manager.createDirectory(atPath: "\(folder)/images", withIntermediateDirectories: true)
        try manager.copyItem(atPath: archive, toPath: "\(folder)/twfeed.sqlite")
        let bytes = Data(repeating: 0x42, count: 2_048)
        for index in 0..<files {
            let name = String(format: "%064x", index)
            let shard = "\(folder)/images/\(name.suffix(2))"
            if !manager.fileExists(atPath: shard) { try manager.createDirectory(atPath: shard, withIntermediateDirectories: false) }
            try bytes.write(to: URL(fileURLWithPath: "\(shard)/\(name).png"))
        }
        return try ReaderConfig.write(folder: folder)
    }

    static func waitForReader(port: Int) async throws {
        for _ in 0..<200 {
            if (try? await RawHTTP.request(port: port, "/healthz")) != nil { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchError("twfeed serve did not answer on port \(port)")
    }
}
