import ArgumentParser
import Foundation
import Synchronization
import TwfeedCore
import TwfeedEmulatorArchive
import TwfeedKit
import TwfeedReader
import TwfeedSandbox

/// Emulator plus daemon on loopback, end to end, with files in a fresh folder: what a
/// user runs before they have API keys. The daemon is `twfeed run`'s own
/// (`DaemonSupervisor.Launch`), so what the user tries beside it behaves as in real use.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the daemon against the local API emulator and show what it stored."
    )

    @Option(help: "The API dialect to speak: v2 or v1.1.", completion: .list(["v2", "v1.1"]))
    var dialect: String = "v2"

    @Option(help: "Tweets the emulator holds per feed at start.")
    var tweets: Int = 300

    @Option(help: "A folder for the demo's config, credentials, database and log (default: a new temporary folder).", completion: .directory)
    var dir: String?

    @Option(help: "Keep the daemon running this many seconds after the first polls.")
    var seconds: Double = 0

    @Flag(help: "Keep the emulator, the daemon and the web reader running until Ctrl-C, and print the reader's URL.")
    var serve = false

    @Option(help: ArgumentHelp("With --serve: where the reader listens (port 0: any free port).", valueName: "HOST:PORT"))
    var listen: String = "127.0.0.1:8765"

    /// Every command's `--config` and `--account`, which the demo refuses: it makes its own.
    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if global.config != nil || global.account != nil {
            throw ValidationError("demo makes its own config in --dir: --config and --account do not apply")
        }
        if serve {
            do {
                let address = try ListenAddress(parsing: listen)
                guard address.isLoopback else { throw ValidationError("--listen: the demo serves on loopback only, not \(listen)") }
            } catch let error as ListenAddress.ParseError {
                throw ValidationError("--listen: \"\(listen)\" \(error.reason)")
            }
        }
        guard dialect == "v2" || dialect == "v1.1" else { throw ValidationError("--dialect must be v2 or v1.1") }
        guard tweets >= 0 else { throw ValidationError("--tweets must not be negative") }
    }

    /// Which part of the demo ended first.
    private enum Part: Sendable { case daemon, tour }

    func run() async throws {
        // The signals `twfeed run` traps, trapped before anything starts: Ctrl-C stops the
        // demo's daemon gracefully, SIGHUP reloads its config, as they do the real one's.
        let signals = await DaemonSupervisor.processControls()
        try await CommandLineEdge.run {
            let folder = try dir ?? Sandbox.temporaryFolder(prefix: "twfeed-demo")
            let sandbox = try Sandbox(
                folder: folder,
                dialect: dialect,
                tweetsPerFeed: tweets,
                configure: { $0.newTweetIntervalSeconds = 5 },
                apiKeys: ["timeoutSeconds": .number("10")],
                config: Self.configKeys(folder: folder, listen: serve ? listen : nil)
            )
            defer { sandbox.stop() }
            let hints = Hints(command: CommandPath.typed(), configPath: sandbox.configPath)
            emit("twfeed demo: emulator (\(dialect)) at \(sandbox.emulator.baseURL), files in \(folder)")

            // The daemon `twfeed run --config <the demo's config>` would start: its lock,
            // wake socket, status snapshot and reloads, in this process.
            let reader = Mutex<ListenAddress?>(nil)
            let launch = try DaemonSupervisor.Launch(
                configPath: sandbox.configPath,
                dependencies: Daemon.Dependencies(reader: ReaderServer.inDaemon(onListening: { address in reader.withLock { $0 = address } }))
            )
            let (controls, control) = AsyncStream<DaemonSupervisor.Control>.makeStream()
            let forwarder = Task {
                for await signal in signals { control.yield(signal) }
            }
            defer { forwarder.cancel() }
            let tour = DemoTour(
                launch: launch,
                hints: hints,
                emulatorURL: sandbox.emulator.baseURL,
                writeArchive: { [emulator = sandbox.emulator] path in _ = try ArchiveExport.write(emulator, to: path) },
                seconds: seconds,
                serve: serve ? listen : nil,
                reader: { reader.withLock { $0 } }
            )
            try await withThrowingTaskGroup(of: Part.self) { group in
                group.addTask {
                    try await launch.run(controls: controls)
                    return .daemon
                }
                group.addTask {
                    try await tour.run()
                    return .tour
                }
                do {
                    if try await group.next() == .tour {
                        // Without --serve the demo ends here; with it, at Ctrl-C.
                        if !serve { control.yield(.stop) }
                        _ = try await group.next()
                    } else {
                        group.cancelAll()  // stopped by a signal before the tour was over
                    }
                } catch {
                    control.yield(.stop)
                    throw error
                }
            }
            emit("\nThe demo's files stay in \(folder). Read them offline with:")
            emit("  " + hints.command("feed home"))
            if !serve {
                emit("See them in a browser, and try post, show and fetch with its daemon running: \(hints.command) demo --serve")
            }
        }
    }

    /// What the demo adds to the sandbox's config: quick polls, loopback avatars, a log file.
    private static func configKeys(folder: String, listen: String?) -> [String: JSONValue] {
        var keys: [String: JSONValue] = [
            "feeds": .object([
                "home": .object(["intervalSeconds": .number("15")]),
                "mentions": .object(["intervalSeconds": .number("15")]),
                "retweets": .object(["intervalSeconds": .number("30")]),
            ]),
            "images": .object(["allowInsecureLoopback": .bool(true), "allowedHosts": .array([.string("127.0.0.1")])]),
            "log": .object(["file": .string("\(folder)/twfeed.log")]),
        ]
        if let listen { keys["http"] = .object(["listen": .string(listen)]) }
        return keys
    }
}
