import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedStore
import TwfeedTesting

/// `twfeed demo` runs the real daemon (`twfeed run`'s): while it serves, every command it
/// suggests runs when pasted and reaches its daemon, and a second daemon is refused.
@Suite(.tags(.integration)) struct DemoTests {
    @Test(.timeLimit(.minutes(2)))
    func whileTheDemoServesEveryCommandItSuggestsReachesItsDaemon() async throws {
        let scratch = try ScratchFolder(prefix: "twfeed-demo-it")
        let folder = scratch.path + "/demo"
        let config = folder + "/config.json"
        let demo = try Interactive.demo(["demo", "--serve", "--listen", "127.0.0.1:0", "--tweets", "10", "--dir", folder], log: scratch.path + "/stderr")
        defer { demo.kill() }
        let shown = demo.lines { $0.hasPrefix("The emulator adds a tweet") }
        #expect(shown.last?.hasPrefix("The emulator adds a tweet") == true, "the demo ended early: \(shown)")

        // The demo's spend is labelled as the emulator's, not the user's money.
        #expect(shown.contains { $0.hasPrefix("== usage") && $0.hasSuffix("not real money") }, "\(shown)")
        #expect(shown.contains { $0.hasPrefix("cycle ") && $0.hasSuffix("(the emulator's money, not real)") }, "\(shown)")
        // The demo's thread went out whole, its first part with its photo and description.
        #expect(shown.contains { $0.contains("  sent  part 1/2  tweet ") && $0.hasSuffix("[photo demo.png: A single orange pixel, the demo's photo]") }, "\(shown)")
        #expect(shown.contains { $0.contains("  sent  part 2/2  tweet ") }, "\(shown)")

        // Every command it prints names the binary as the test started it (absolute: it
        // is not on PATH), with the demo's config; pasted into a shell, each one runs.
        let prefix = "  \(Binary.twfeed) "
        let hints = shown.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(2)) }
        #expect(hints.map { $0.split(separator: " ")[1] }.starts(with: ["status", "post", "show"]), "\(hints)")
        #expect(hints.allSatisfy { $0.hasSuffix("--config \(config)") }, "\(hints)")
        let open = try #require(shown.first { $0.contains("another: \(Binary.twfeed) open --config \(config) --listen 127.0.0.1:") })
        let openCommand = String(open[open.range(of: Binary.twfeed)!.lowerBound...].dropLast())  // without the ")"
        for hint in hints + [openCommand] {
            let pasted = try Binary.shell(hint)
            #expect(pasted.status == 0, "\(hint): \(pasted.status) \(pasted.stderr)")
            if hint.contains(" post ") {
                // The wake socket: the daemon sends it now, not at its next timer tick.
                #expect(pasted.stdout.contains("the daemon is sending it"), "\(pasted.stdout)")
                #expect(pasted.stdout.hasSuffix("(the emulator's money, not real)\n"), "\(pasted.stdout)")
            }
            if hint.contains(" status ") {
                #expect(pasted.stdout.contains("daemon    running, pid \(demo.pid)"), "\(pasted.stdout)")
                #expect(pasted.stdout.contains("\n          the emulator's money, not real\n"), "\(pasted.stdout)")
            }
        }
        let database = try StoreReader.open(path: folder + "/twfeed.sqlite")
        #expect(try await eventually { try await database.outboxItems().contains { $0.text == "hello" && $0.state == .sent } })

        // `show` and `fetch` of posts the store lacks reach the daemon.
        let show = try Binary.run(["show", "7", "--config", config])
        #expect(show.status == 69 && show.stderr.contains("the daemon fetches it"), "\(show.stderr)")
        let fetch = try Binary.run(["fetch", "8", "--config", config])
        #expect(fetch.status == 0 && fetch.stdout == "asked the daemon for 1 post\n", "\(fetch.stderr)")

        // One daemon per database: a second one is refused, naming the demo's pid.
        let second = try Binary.run(["run", "--config", config])
        #expect(second.status == 75)
        #expect(second.stderr == "twfeed: \(folder)/twfeed.sqlite: already in use by twfeed (pid \(demo.pid))\n")

        // Ctrl-C ends the demo gracefully; what it suggests then runs too.
        let (status, rest) = demo.interrupt()
        #expect(status == 0, "\(rest)")
        let feed = try #require(rest.first { $0.hasPrefix(prefix + "feed home") })
        let pasted = try Binary.shell(String(feed.dropFirst(2)))
        #expect(pasted.status == 0 && pasted.stdout.contains("[home"), "\(pasted.stderr)")
    }

    @Test(.timeLimit(.minutes(1)))
    func onPathTheDemoSuggestsTheBareName() async throws {
        let scratch = try ScratchFolder(prefix: "twfeed-demo-it")
        let path = "\(Binary.folder):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"
        let demo = try Interactive.demo(["demo", "--tweets", "3", "--dir", scratch.path + "/demo"], log: scratch.path + "/stderr", path: path)
        let lines = demo.lines { _ in false }
        #expect(demo.wait() == 0)
        let config = scratch.path + "/demo/config.json"
        #expect(lines.contains("  twfeed feed home --config \(config)"), "\(lines)")
        #expect(lines.last?.hasSuffix(": twfeed demo --serve") == true, "\(lines)")
        let pasted = try Binary.shell("twfeed feed home --config \(config)", environment: ["PATH": path])
        #expect(pasted.status == 0, "\(pasted.stderr)")
    }
}

extension Interactive {
    /// `twfeed demo` with its log (stderr) in a file, read line by line as it prints.
    static func demo(_ arguments: [String], log: String, path: String? = nil) throws -> Interactive {
        try Interactive(arguments, environment: path.map { ["PATH": $0] } ?? [:], errorLog: log)
    }

    var pid: Int32 { process.processIdentifier }

    /// The lines up to and including the first that `last` accepts, or to the end.
    func lines(until last: (String) -> Bool) -> [String] {
        var lines: [String] = []
        while let line = readLine() {
            lines.append(line)
            if last(line) { break }
        }
        return lines
    }

    /// SIGINT, as Ctrl-C: the exit status and the lines printed after it.
    func interrupt() -> (Int32, [String]) {
        process.interrupt()
        let rest = lines { _ in false }
        return (wait(), rest)
    }

    func wait() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    func kill() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
