import Foundation
import Synchronization
import Testing
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedReader
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedStore

/// The reader inside the daemon (`http.listen`): it starts and stops with the daemon's
/// group, `/healthz` follows the daemon, and the counters on `/metrics` move as the
/// daemon polls and posts.
@Suite(.serialized, .tags(.integration))
struct ReaderDaemonTests {
    @Test func metricsCountThePollsAndThePostsOfTheRunningDaemon() async throws {
        let world = try TestWorld(tweets: 60, extraConfig: ["http": .object(["listen": .string("127.0.0.1:0")])])
        let config = try world.config
        let clock = ManualClock(now: Date())
        let port = Mutex<Int?>(nil)
        let database = try AppDatabase.open(path: config.storage.database)
        let daemon = try Daemon.build(
            config: config, credentials: try Credentials.load(from: config.credentials), database: database,
            dependencies: .init(clock: clock, reader: ReaderServer.inDaemon(onListening: { address in port.withLock { $0 = address.port } })),
            statusPath: "\(world.folder)/status.json", gracefulShutdownSignals: [], logger: world.logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await daemon.run() }
            #expect(try await eventually { try await config.enabledFeeds.allSatisfy { try await database.syncState($0).lastSuccessAt != nil } })
            #expect(await eventually { port.withLock { $0 } != nil })
            let reader = try #require(port.withLock { $0 })
            #expect(world.sink.events("http.listening").first?.contains("address=127.0.0.1:\(reader)") == true)

            let first = try PrometheusText(parsing: try await RawHTTP.request(port: reader, "/metrics").text)
            let homeTweets = try await database.feedStats(.home).tweets
            #expect(first.types["twfeed_poll_requests_total"] == "counter")
            #expect(first.types["twfeed_poll_duration_seconds"] == "histogram")
            #expect(first.types["twfeed_outbox_sent_total"] == "counter")
            #expect((first.value("twfeed_poll_requests_total", ["feed": "home", "outcome": "ok"]) ?? 0) >= 1)
            #expect((first.value("twfeed_poll_duration_seconds_count", ["feed": "home"]) ?? 0) >= 1)
            #expect(first.value("twfeed_tweets", ["feed": "home"]) == Double(homeTweets))
            #expect(first.value("twfeed_outbox_sent_total") == 0)
            #expect(first.value("twfeed_up") == 1)
            #expect((first.value("twfeed_rate_limit_remaining", ["feed": "home"]) ?? 0) > 0)
            let lastSuccess = try await database.syncState(.home).lastSuccessAt
            #expect(first.value("twfeed_last_success_timestamp_seconds", ["feed": "home"]) == lastSuccess?.timeIntervalSince1970)

            let health = try await RawHTTP.request(port: reader, "/healthz")
            #expect(health.status == 200)
            #expect(try JSONValue.parse(health.body)["daemon"]?["running"] == .bool(true))

            // A post and a new poll: the counters move.
            let queued = try await database.enqueue(text: "Counted by the metrics", replyTo: nil, now: clock.now())
            daemon.doorbell.ring()
            #expect(try await eventually { try await database.outboxItem(queued.id)?.state == .sent })
            world.emulator.addTweets(to: .home, count: 3)
            let polledBefore = try await database.syncState(.home).lastPollAt
            clock.advance(by: 16)
            #expect(try await eventually {
                let polled = try await database.syncState(.home).lastPollAt
                let tweets = try await database.feedStats(.home).tweets
                return polled != polledBefore && tweets >= homeTweets + 3
            })
            let baseline = first.value("twfeed_poll_requests_total", ["feed": "home", "outcome": "ok"]) ?? 0
            let moved = try await eventually {
                let metrics = try PrometheusText(parsing: try await RawHTTP.request(port: reader, "/metrics").text)
                return metrics.value("twfeed_outbox_sent_total") == 1
                    && (metrics.value("twfeed_poll_requests_total", ["feed": "home", "outcome": "ok"]) ?? 0) > baseline
            }
            #expect(moved, "twfeed_outbox_sent_total went to 1 and the home poll counter grew")
            let last = try PrometheusText(parsing: try await RawHTTP.request(port: reader, "/metrics").text)
            #expect(last.value("twfeed_tweets", ["feed": "home"]) == Double(try await database.feedStats(.home).tweets))
            #expect(last.value("twfeed_outbox_statuses", ["state": "sent"]) == 1)

            await daemon.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(world.sink.events("http.stopped").count == 1)
        #expect(world.sink.events("http.stopped").first?.contains("address=127.0.0.1:0") == false, "the bound port, not 0")
    }

    @Test func aTakenPortStopsTheDaemonWithOneLine() async throws {
        // Take a port, then ask the daemon to listen there.
        let holder = try TestWorld(tweets: 5, extraConfig: ["http": .object(["listen": .string("127.0.0.1:0")])])
        let port = Mutex<Int?>(nil)
        let config = try holder.config
        let first = try Daemon.build(
            config: config, credentials: try Credentials.load(from: config.credentials),
            database: try AppDatabase.open(path: config.storage.database),
            dependencies: .init(reader: ReaderServer.inDaemon(onListening: { address in port.withLock { $0 = address.port } })),
            gracefulShutdownSignals: [], logger: holder.logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await first.run() }
            #expect(await eventually { port.withLock { $0 } != nil })
            let taken = try #require(port.withLock { $0 })
            let world = try TestWorld(tweets: 5, extraConfig: ["http": .object(["listen": .string("127.0.0.1:\(taken)")])])
            let second = try world.daemon()
            await #expect(throws: (any Error).self) { try await second.run() }
            #expect(world.sink.events("http.failed").first?.contains("address=127.0.0.1:\(taken)") == true)
            await first.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
