import Foundation
import Logging
import Testing
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedReader
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// The reload loop of `twfeed run`, in process: controls come from the test instead of
/// signals.
@Suite(.serialized, .tags(.integration))
struct SupervisorTests {
    func start(_ world: TestWorld, notifier: RecordingNotifier) throws
        -> (DaemonSupervisor, AsyncStream<DaemonSupervisor.Control>.Continuation, Task<Void, any Error>) {
        let config = try world.config
        let database = try AppDatabase.open(path: config.storage.database)
        let supervisor = DaemonSupervisor(
            initialConfig: config, database: database, dependencies: .init(notifier: notifier, reader: ReaderServer.inDaemon()),
            environment: [:], credentialCheckInterval: 0.1) { [configPath = world.configPath] in
            try ConfigLoader.load(explicit: configPath)
        }
        let logs = LogSetup(logger: world.logger, redactor: Redactor())
        let (controls, continuation) = AsyncStream<DaemonSupervisor.Control>.makeStream()
        let inputs = DaemonSupervisor.Inputs(
            config: config, credentials: try Credentials.load(from: config.credentials), database: database, logs: logs)
        let task = Task { try await supervisor.run(initial: inputs, controls: controls) }
        return (supervisor, continuation, task)
    }

    /// Logout without a signal (the daemon may run as another user): the changed
    /// credentials file is noticed on the next check, and the daemon signs out rather
    /// than exiting (which `Restart=on-failure` would turn into a crash loop).
    @Test func aChangedCredentialsFileIsNoticedWithoutASignal() async throws {
        let world = try TestWorld(tweets: 10)
        let notifier = RecordingNotifier()
        let (supervisor, controls, task) = try start(world, notifier: notifier)
        #expect(await eventually { world.sink.events("poll.done").count == 3 })
        #expect(notifier.messages.first == "READY=1")

        let demo = world.emulator.configuration.credentials
        try Credentials(consumerKey: demo.consumerKey, consumerSecret: demo.consumerSecret).write(to: world.credentialsPath)
        #expect(await eventually { !world.sink.events("auth.signed_out").isEmpty })
        let reload = try #require(world.sink.events("daemon.reload").first)
        #expect(reload.contains("reason=credentials-changed"))
        #expect(reload.contains("signed_in=false"))
        #expect(supervisor.board.snapshot.signedOut == true)
        #expect(notifier.messages.contains { $0.hasPrefix("RELOADING=1") })
        #expect(await eventually {
            notifier.messages.last { $0.hasPrefix("STATUS=") } == "STATUS=signed out: no access token (run twfeed login)"
        })
        #expect(!task.isCancelled)

        controls.yield(.stop)
        try await task.value
        #expect(notifier.messages.contains("STOPPING=1"))
        #expect(world.sink.events("daemon.stop").count == 1)
    }

    /// A reload names what changed from one list of the config's sections: moving only
    /// the reader's address is `changed=http`, not `changed=none`.
    @Test func aReloadThatOnlyMovesTheReaderNamesHttp() async throws {
        let world = try TestWorld(tweets: 10)
        let notifier = RecordingNotifier()
        let (_, controls, task) = try start(world, notifier: notifier)
        #expect(await eventually { world.sink.events("poll.done").count == 3 })

        try world.writeConfig(["http": .object(["listen": .string("127.0.0.1:0")])])
        controls.yield(.reload)
        #expect(await eventually { world.sink.events("daemon.reload").count == 1 })
        let reload = try #require(world.sink.events("daemon.reload").first)
        #expect(reload.contains(" changed=http "), "\(reload)")

        controls.yield(.stop)
        try await task.value
        #expect(world.sink.events("daemon.stop").count == 1)
    }

    @Test func aBrokenConfigOrCredentialsFileIsRefusedAndTheDaemonKeepsRunning() async throws {
        let world = try TestWorld(tweets: 10)
        let notifier = RecordingNotifier()
        let (_, controls, task) = try start(world, notifier: notifier)
        #expect(await eventually { world.sink.events("poll.done").count == 3 })

        try #"{"log": {"level": "loud"}}"#.write(toFile: world.configPath, atomically: true, encoding: .utf8)
        controls.yield(.reload)
        #expect(await eventually { world.sink.events("daemon.reload_failed").count == 1 })
        #expect(world.sink.events("daemon.reload_failed")[0].contains("log.level: unknown level"))

        // A credentials file others can read is refused too (once, not at every check).
        try world.writeConfig()
        chmod(world.credentialsPath, 0o644)
        controls.yield(.reload)
        #expect(await eventually { world.sink.events("daemon.reload_failed").count == 2 })
        #expect(world.sink.events("daemon.reload_failed")[1].contains("credentials file is readable by others"))
        chmod(world.credentialsPath, 0o600)
        controls.yield(.reload)
        #expect(await eventually { world.sink.events("daemon.reload").count == 1 })
        #expect(notifier.messages.filter { $0 == "READY=1" }.count == 2)
        #expect(world.sink.events("daemon.reload_failed").count == 2)

        controls.yield(.stop)
        try await task.value
        #expect(world.sink.events("daemon.stop").count == 1)
    }
}
