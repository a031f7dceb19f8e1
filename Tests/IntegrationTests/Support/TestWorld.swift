import Foundation
import Logging
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedCore
import TwfeedReader
import TwfeedSandbox
import Testing
import TwfeedTesting

/// A temporary folder with a config and credentials pointing at a fresh emulator on
/// loopback: the same files a user's demo has (a `Sandbox`), plus an in-memory log.
final class TestWorld: @unchecked Sendable {
    let sandbox: Sandbox
    let sink = MemorySink()
    var folder: String { sandbox.folder }

    /// Sets the emulator's clock to the daemon's manual one: time a test lets pass for
    /// the daemon passes for the server too. The signature carries the daemon's clock,
    /// and the API refuses a timestamp minutes away from its own (401, code 135).
    func serverFollows(_ clock: ManualClock) {
        emulator.setClockSkew(seconds: clock.now().timeIntervalSinceNow)
    }
    var emulator: Emulator { sandbox.emulator }
    var dialect: String { sandbox.dialect }
    var configPath: String { sandbox.configPath }
    var credentialsPath: String { sandbox.credentialsPath }
    var databasePath: String { sandbox.databasePath }

    /// Every feed polls every 15 s unless a test says otherwise.
    static let feeds = feeds(every: 15)

    /// The config's `feeds` key with every polled feed at `seconds`.
    static func feeds(every seconds: Int) -> [String: JSONValue] {
        ["feeds": .object(Dictionary(uniqueKeysWithValues: ["home", "mentions", "retweets"].map {
            ($0, JSONValue.object(["intervalSeconds": .number(String(seconds))]))
        }))]
    }

    init(dialect: String = "v2", tweets: Int = 200, configure: (inout EmulatorConfiguration) -> Void = { _ in },
         extraConfig: [String: JSONValue] = [:]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-it-\(UUID().uuidString.prefix(8))").path
        // TWFEED_IT_VOCABULARY=post runs the suite against v2 answers in the new vocabulary.
        let vocabulary = ProcessInfo.processInfo.environment["TWFEED_IT_VOCABULARY"].flatMap(EmulatorVocabulary.init(rawValue:))
        sandbox = try Sandbox(folder: folder, dialect: dialect, tweetsPerFeed: tweets,
                              configure: { settings in
                                  if let vocabulary { settings.vocabulary = vocabulary }
                                  configure(&settings)
                              },
                              apiKeys: ["timeoutSeconds": .number("5")],
                              config: Self.feeds.merging(extraConfig) { $1 })
    }

    func writeConfig(_ extra: [String: JSONValue] = [:], baseURL: String? = nil) throws {
        try sandbox.writeConfig(Self.feeds.merging(extra) { $1 }, baseURL: baseURL)
    }

    var config: TwfeedConfig { get throws { try ConfigLoader.load(explicit: configPath) } }

    var logger: Logger {
        Logger(label: "it") { [sink] _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
    }

    /// The daemon as `twfeed run` builds it, in process, with the real libcurl transport.
    func daemon(database: AppDatabase? = nil, clock: any WallClock = SystemClock(),
                transport: any APITransport = CurlTransport()) throws -> Daemon {
        let config = try self.config
        return try Daemon.build(
            config: config, credentials: try Credentials.load(from: config.credentials),
            database: try database ?? MigratedDatabase.open(path: config.storage.database),
            dependencies: .init(transport: transport, clock: clock, reader: ReaderServer.inDaemon()), logger: logger)
    }

    deinit {
        sandbox.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// Runs the built `twfeed` binary.
enum Binary {
    /// Beside the test bundle: `swift build` puts every product in the same folder.
    static var folder: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent
    }

    static var twfeed: String { "\(folder)/twfeed" }

    /// The binary with the test's environment, minus what would make it log for the journal.
    static func makeProcess(_ arguments: [String], environment: [String: String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: twfeed)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["JOURNAL_STREAM"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        return process
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs to completion, feeding `input` to standard input.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = makeProcess(arguments, environment: environment)
        let pipes = try ChildPipes.run(process, input: true)
        if let input { pipes.input?.write(Data(input.utf8)) }
        try pipes.input?.close()
        let stdout = pipes.output.readDataToEndOfFile()
        let stderr = pipes.error?.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Runs `body` (a command run to its end) on a thread of its own and awaits it: for a
    /// child that talks back to this process (the reader of a daemon run in process). Its
    /// answer needs a thread of the cooperative pool, one per core, which a blocking wait
    /// for the child must not hold.
    static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
        }
    }

    /// Starts a long-running command (`twfeed run`) with its output going to a file.
    static func start(_ arguments: [String], logFile: String, environment: [String: String] = [:]) throws -> Process {
        let process = makeProcess(arguments, environment: environment)
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        handle.seekToEndOfFile()
        process.standardError = handle
        process.standardOutput = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// `twfeed serve` on a free loopback port, once it answers `/healthz`: the process
    /// (terminate it when done) and its port. Waits for the answer or the process's exit,
    /// not for a fixed time; only a server that neither answers nor exits within
    /// `safetyNet` (real time, far beyond a start on a loaded machine) ends the wait.
    static func serve(_ world: TestWorld, safetyNet: Duration = .seconds(300)) async throws -> (process: Process, port: Int) {
        let port = try LoopbackSocket.freePort()
        let server = try start(["serve", "--config", world.configPath, "--listen", "127.0.0.1:\(port)"], logFile: "\(world.folder)/serve.log")
        let hung = ContinuousClock.now.advanced(by: safetyNet)
        while server.isRunning, ContinuousClock.now < hung {
            if (try? await RawHTTP.request(port: port, "/healthz")) != nil { return (server, port) }
            try await Task.sleep(for: .milliseconds(25))
        }
        let exited = !server.isRunning
        server.terminate()
        server.waitUntilExit()
        throw TwfeedError(.unavailable, exited ? "twfeed serve exited before it answered on port \(port)"
            : "twfeed serve neither answered on port \(port) nor exited")
    }
}

import Synchronization
@testable import TwfeedCore
@testable import TwfeedStore

/// Counts requests whose URL contains a marker and runs an action on the n-th.
final class NthRequest: Sendable {
    let marker: String
    let count = Mutex(0)
    let n: Int
    let action: @Sendable () -> Void

    init(_ n: Int, containing marker: String, action: @escaping @Sendable () -> Void) {
        self.n = n
        self.marker = marker
        self.action = action
    }

    func see(_ request: APIRequest) {
        guard request.url.contains(marker) else { return }
        let seen = count.withLock { value -> Int in
            value += 1
            return value
        }
        if seen == n { action() }
    }
}

extension Sequence {
    /// `allSatisfy` for a condition that reads the store (whose reads are async).
    func allSatisfy(_ condition: (Element) async throws -> Bool) async rethrows -> Bool {
        for element in self where try await !condition(element) { return false }
        return true
    }
}

extension TestWorld {
    /// Polls `syncer`'s feed, the clock (and the server with it) 15 s on before each poll,
    /// until the post `id` is among the feed's members, at most `polls` times; each poll
    /// must complete. Whether it is a member at the end.
    func pollUntilMember(_ id: String, _ syncer: FeedSyncer, database: AppDatabase, clock: ManualClock, polls: Int) async throws -> Bool {
        for _ in 0..<polls {
            if try await database.memberIDs(syncer.feed).map(\.description).contains(id) { return true }
            clock.advance(by: 15)
            serverFollows(clock)
            #expect(try await syncer.poll().complete)
        }
        return try await database.memberIDs(syncer.feed).map(\.description).contains(id)
    }
}
