import Foundation
import TwfeedCore
import TwfeedReader
import TwfeedTesting

/// `twfeed-bench --graph-pages [--sizes 10000,1000000] [--runs N] [--cache DIR]`: the
/// benchmark rows of "What a tweet points at". At each size, the plain and the graph
/// archive (`GraphArchive`) are served by `twfeed serve`, all at once, and every
/// request of a run goes to each of them in turn (the order rotating run by run), so a
/// change in the machine's load touches every figure alike:
///
/// - `/home` of the graph archive against `/home` of the plain one: target + 3 ms;
/// - `/tweet/ID` of the conversation (depth 6, 20 replies) against `/healthz` of the
///   same server, the floor of a page of `serve`: target + 5 ms;
/// - the full `feed home --json` dump of the graph archive, as the table times it (median
///   of 5): target 100,000 tweets/s at 100k tweets and more (at 10k the process start
///   dominates).
///
/// Prints a markdown table and a PASS or FAIL line per target; returns false on a FAIL.
enum GraphPages {
    static let homeTarget = 0.003
    static let conversationTarget = 0.005
    static let dumpTarget = 100_000.0
    static let dumpRuns = 5

    struct Options {
        var sizes = [10_000, 1_000_000]
        var runs = 41
        var cache = ".bench-cache"

        init(arguments: [String]) {
            if let index = arguments.firstIndex(of: "--cache"), index + 1 < arguments.count { cache = arguments[index + 1] }
            if let index = arguments.firstIndex(of: "--sizes"), index + 1 < arguments.count {
                let chosen = arguments[index + 1].split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
                if !chosen.isEmpty { sizes = chosen }
            }
            if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.count, let runs = Int(arguments[index + 1]), runs > 0 {
                self.runs = runs
            }
        }
    }

    /// One server: an archive served on a port, signed in with its reader secret.
    struct Server {
        let size: Int
        let variant: GraphArchive.Variant
        let config: String
        let port: Int
        var bearer: String?
        var process: Process?
    }

    /// One request timed in every run.
    struct Probe: Hashable {
        let size: Int
        let variant: GraphArchive.Variant
        let path: String
    }

    struct SizeFigures {
        var pair: GraphArchive.Pair
        var floor = 0.0
        var plainHome = 0.0
        var graphHome = 0.0
        var conversation = 0.0
        var plainBytes = 0
        var graphBytes = 0
        var conversationBytes = 0
        var dumpRate: Double?
        var homeDelta: Double { graphHome - plainHome }
        var conversationOverFloor: Double { conversation - floor }
    }

    static func run(arguments: [String], folder: String) async throws -> Bool {
        let options = Options(arguments: arguments)
        let twfeed = (CommandLine.arguments[0] as NSString).deletingLastPathComponent + "/twfeed"
        guard FileManager.default.isExecutableFile(atPath: twfeed) else { throw BenchError("\(twfeed) is not built") }
        let cache = absolute(options.cache)
        let loadBefore = loadAverage()

        var figures: [Int: SizeFigures] = [:]
        for size in options.sizes {
            progress("archives of \(size) tweets (plain and graph)")
            figures[size] = SizeFigures(pair: try await GraphArchive.pair(size: size, cache: cache))
        }

        // Every server up at once: each reads its archive through a link (the reader's
        // secret and status path sit beside the link, in this run's folder).
        var servers: [Server] = []
        for size in options.sizes {
            let pair = figures[size]!.pair
            for variant in GraphArchive.Variant.allCases {
                servers.append(
                    try prepare(
                        size: size,
                        variant: variant,
                        archive: variant == .plain ? pair.plain.path : pair.graph.path,
                        folder: "\(folder)/\(variant.rawValue)-\(size)"
                    )
                )
            }
        }
        defer {
            for server in servers {
                server.process?.terminate()
                server.process?.waitUntilExit()
            }
        }
        for index in servers.indices {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: twfeed)
            process.arguments = ["serve", "--config", servers[index].config]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            servers[index].process = process
            try await CacheCost.waitForReader(port: servers[index].port)
            let secret = try ReaderSecret.load(path: "\((servers[index].config as NSString).deletingLastPathComponent)/\(ReaderSecret.fileName)")
            servers[index].bearer = secret?.value
        }
        func server(_ size: Int, _ variant: GraphArchive.Variant) -> Server {
            servers.first { $0.size == size && $0.variant == variant }!
        }

        var probes: [Probe] = []
        for size in options.sizes {
            let leaf = figures[size]!.pair.conversationLeaf
            probes += [
                Probe(size: size, variant: .plain, path: "/home"),
                Probe(size: size, variant: .graph, path: "/home"),
                Probe(size: size, variant: .graph, path: "/healthz"),
                Probe(size: size, variant: .graph, path: "/tweet/\(leaf)"),
            ]
        }

        // Each page once, checked: the graph pages show what they point at and lack
        // nothing; the plain page shows none of it. Then warm.
        progress("checking the pages")
        for size in options.sizes {
            let plain = try await get(server(size, .plain), "/home").text
            let graph = try await get(server(size, .graph), "/home").text
            let leaf = figures[size]!.pair.conversationLeaf
            let conversation = try await get(server(size, .graph), "/tweet/\(leaf)").text
            try check(plain: plain, graph: graph, conversation: conversation, pair: figures[size]!.pair)
            figures[size]!.plainBytes = plain.utf8.count
            figures[size]!.graphBytes = graph.utf8.count
            figures[size]!.conversationBytes = conversation.utf8.count
        }
        for _ in 0..<3 {
            for probe in probes { _ = try await get(server(probe.size, probe.variant), probe.path) }
        }

        progress("timing \(probes.count) requests × \(options.runs) runs, interleaved")
        var times: [Probe: [Double]] = [:]
        for run in 0..<options.runs {
            let shift = run % probes.count
            for probe in probes[shift...] + probes[..<shift] {
                let started = DispatchTime.now()
                _ = try await get(server(probe.size, probe.variant), probe.path)
                times[probe, default: []].append(Bench.elapsed(since: started))
            }
        }
        for size in options.sizes {
            let leaf = figures[size]!.pair.conversationLeaf
            func median(_ variant: GraphArchive.Variant, _ path: String) -> Double {
                Bench.median(times[Probe(size: size, variant: variant, path: path)]!)
            }
            figures[size]!.plainHome = median(.plain, "/home")
            figures[size]!.graphHome = median(.graph, "/home")
            figures[size]!.floor = median(.graph, "/healthz")
            figures[size]!.conversation = median(.graph, "/tweet/\(leaf)")
        }
        for server in servers {
            server.process?.terminate()
            server.process?.waitUntilExit()
        }

        // The full dump, as the table times it (every home tweet), median of 5: a run
        // moves 370 MB at 1M, and its time varies more than a page's.
        for size in options.sizes {
            let graph = figures[size]!.pair.graph
            progress("full feed home --json dump of \(graph.homeTweets) tweets")
            let dump = try ProcessTimer.median(
                twfeed,
                ["feed", "home", "--limit", "\(graph.homeTweets)", "--json", "--config", server(size, .graph).config],
                runs: dumpRuns,
                budget: 120
            )
            figures[size]!.dumpRate = dump.map { Double(graph.homeTweets) / $0 }
        }
        let loadAfter = loadAverage()

        let ordered = options.sizes.map { figures[$0]! }
        print(table(ordered, runs: options.runs))
        print("")
        print("load average (1, 5, 15 min): \(loadBefore) at the start, \(loadAfter) at the end")
        var passed = true
        for figure in ordered {
            let size = MarkdownTable.count(figure.pair.graph.tweets)
            let home = figure.homeDelta <= homeTarget
            let conversation = figure.conversationOverFloor <= conversationTarget
            print(
                String(
                    format: "%@ /home with what posts point at, %@ tweets: %+.1f ms over the plain page (target +%.0f ms)",
                    verdict(home),
                    size,
                    figure.homeDelta * 1000,
                    homeTarget * 1000
                )
            )
            print(
                String(
                    format: "%@ /tweet/ID, depth %d with %d replies, %@ tweets: %+.1f ms over /healthz (target +%.0f ms)",
                    verdict(conversation),
                    figure.pair.conversationDepth,
                    figure.pair.conversationReplies,
                    size,
                    figure.conversationOverFloor * 1000,
                    conversationTarget * 1000
                )
            )
            passed = passed && home && conversation
            if figure.pair.graph.tweets >= 100_000 {
                let dump = (figure.dumpRate ?? 0) >= dumpTarget
                print(
                    "\(verdict(dump)) full feed home --json dump, \(size) tweets: "
                        + (figure.dumpRate.map { "\(MarkdownTable.count(Int($0))) tweets/s" } ?? "over 120 s")
                        + " (target \(MarkdownTable.count(Int(dumpTarget))) tweets/s)"
                )
                passed = passed && dump
            }
        }
        return passed
    }

    /// The figures as one markdown table, a column per size.
    static func table(_ figures: [SizeFigures], runs: Int) -> String {
        var lines: [String] = []
        lines.append(
            "| `twfeed serve`, median of \(runs) (interleaved) | "
                + figures.map { "\(MarkdownTable.count($0.pair.graph.tweets)) tweets" }.joined(separator: " | ") + " | target |"
        )
        lines.append("|---|" + figures.map { _ in "---|" }.joined() + "---|")
        func row(_ name: String, target: String, _ cell: (SizeFigures) -> String) {
            lines.append("| \(name) | " + figures.map(cell).joined(separator: " | ") + " | \(target) |")
        }
        func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
        func kb(_ bytes: Int) -> String { String(format: "%.0f KB", Double(bytes) / 1000) }
        let top = figures[0].pair.top
        row("`/healthz` (the floor of a page)", target: "") { ms($0.floor) }
        row("`/home`, the newest 50 posts each standing alone (plain)", target: "") { ms($0.plainHome) + " (\(kb($0.plainBytes)))" }
        row(
            "`/home` with reposts, quotes, replies and photos (of the top's \(top.home) posts: \(top.reposts) reposts, \(top.quotes) quotes, \(top.replies) replies; \(top.withMedia) posts with \(top.mediaItems) media)",
            target: "plain + 3 ms"
        ) { ms($0.graphHome) + String(format: " (%+.1f; %@)", $0.homeDelta * 1000, kb($0.graphBytes)) }
        row(
            "`/tweet/ID`: \(figures[0].pair.conversationDepth) posts above, \(figures[0].pair.conversationReplies) replies",
            target: "floor + 5 ms"
        ) { ms($0.conversation) + String(format: " (+%.1f; %@)", $0.conversationOverFloor * 1000, kb($0.conversationBytes)) }
        row("full `feed home --json` dump (median of \(dumpRuns))", target: "≥ 100,000 tweets/s") { figure in
            figure.dumpRate.map { "\(MarkdownTable.count(Int($0))) tweets/s (\(MarkdownTable.count(figure.pair.graph.homeTweets)))" } ?? "> 120 s"
        }
        return lines.joined(separator: "\n")
    }

    /// What the pages must show for the figures to mean anything.
    static func check(plain: String, graph: String, conversation: String, pair: GraphArchive.Pair) throws {
        let shown = ["class=\"reposted\"", "<blockquote class=\"quoted\"", "<p class=\"context\">", "<div class=\"media\">"]
        for marker in shown {
            guard graph.contains(marker) else { throw BenchError("the graph /home lacks \(marker)") }
            guard !plain.contains(marker) else { throw BenchError("the plain /home shows \(marker)") }
        }
        for page in [graph, conversation] where page.contains("not fetched yet") {
            throw BenchError("a graph page shows a post as not fetched yet: the archive lacks what it points at")
        }
        let posts = conversation.components(separatedBy: "<li class=\"tweet").count - 1
        let expected = pair.conversationDepth + 1 + pair.conversationReplies
        guard posts == expected else { throw BenchError("/tweet/\(pair.conversationLeaf) shows \(posts) posts, not \(expected)") }
    }

    static func get(_ server: Server, _ path: String) async throws -> RawHTTP.Response {
        let response = try await RawHTTP.$bearer.withValue(server.bearer) { try await RawHTTP.request(port: server.port, path) }
        // `/healthz` answers 503 here: no daemon runs beside `serve` (the same work either way).
        guard response.status == 200 || (path == "/healthz" && response.status == 503) else {
            throw BenchError("\(path) (\(server.variant.rawValue), \(server.size)) answered \(response.status)")
        }
        return response
    }

    /// A folder with a link to the archive and a config serving it on a free port.
    static func prepare(size: Int, variant: GraphArchive.Variant, archive: String, folder: String) throws -> Server {
        let manager = FileManager.default
        try? manager.removeItem(atPath: folder)
        try manager.createDirectory(atPath: "\(folder)/images", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: "\(folder)/twfeed.sqlite", withDestinationPath: archive)
        let (config, port) = try ReaderConfig.write(folder: folder)
        return Server(size: size, variant: variant, config: config, port: port)
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    static func verdict(_ passed: Bool) -> String { passed ? "PASS" : "FAIL" }

    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("bench: \(line)\n".utf8))
    }
}
