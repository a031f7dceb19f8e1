import Foundation
import Logging
import ServiceLifecycle
import Testing
@testable import TwfeedKit
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

struct DaemonServiceTests {
    /// The daemon is one `Service` owning its own group (as Hummingbird's `Application`):
    /// run inside an enclosing group, that group's graceful shutdown reaches the
    /// daemon's services, and the daemon logs its start and its stop once each.
    @Test func theDaemonStopsWithTheGroupThatRunsIt() async throws {
        let clock = ManualClock()
        let sink = MemorySink()
        let logger = Logger(label: "t") { _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
        let hanging = HangingTransport()
        var config = TwfeedConfig(environment: ["HOME": "/nonexistent"])
        config.api.baseURL = "http://127.0.0.1:9"
        config.images.enabled = false
        let daemon = try Daemon.build(
            config: config,
            credentials: Credentials(consumerKey: "ck", consumerSecret: "cs", accessToken: "at", accessTokenSecret: "as"),
            database: try AppDatabase.inMemory(), dependencies: .init(transport: hanging, clock: clock),
            gracefulShutdownSignals: [], logger: logger)
        let group = ServiceGroup(services: [daemon], logger: Logger(label: "lifecycle") { _ in SwiftLogNoOpLogHandler() })
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // The outbox sleeps on the clock; the pollers wait for answers that never come.
            await clock.waitForSleepers(1)
            #expect(sink.events("daemon.start").count == 1)
            await group.triggerGracefulShutdown()
            try await tasks.next()
            #expect(sink.events("daemon.stop").count == 1)
            hanging.release()
        }
    }
}
