import Foundation
import Synchronization
import Testing
import TwfeedEmulator
@testable import TwfeedKit
import TwfeedReaderTesting
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedReader
@testable import TwfeedStore

/// The reader as the app, with the real `twfeed` binary and the daemon: `twfeed open`'s
/// link signs a browser in, a status composed on the page goes out once, another local
/// account gets nothing, and the config refuses `"none"` with remote access.
@Suite(.serialized, .tags(.integration))
struct ReaderAccessIntegrationTests {
    /// The daemon with its reader on a free loopback port, for the body's length.
    func withDaemon(_ world: TestWorld, _ body: (Int, AppDatabase) async throws -> Void) async throws {
        let config = try world.config
        let port = Mutex<Int?>(nil)
        let database = try AppDatabase.open(path: config.storage.database)
        let daemon = try Daemon.build(
            config: config, credentials: try Credentials.load(from: config.credentials), database: database,
            dependencies: .init(reader: ReaderServer.inDaemon(onListening: { address in port.withLock { $0 = address.port } })),
            statusPath: "\(world.folder)/status.json", gracefulShutdownSignals: [], logger: world.logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await daemon.run() }
            #expect(await eventually { port.withLock { $0 } != nil })
            let reader = try #require(port.withLock { $0 })
            do { try await body(reader, database) } catch {
                await daemon.triggerGracefulShutdown()
                throw error
            }
            await daemon.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    static func world() throws -> TestWorld {
        try TestWorld(tweets: 20, extraConfig: ["http": .object(["listen": .string("127.0.0.1:0")])])
    }

    @Test func aStatusComposedOnThePageGoesOutOnce() async throws {
        let world = try Self.world()
        // A flush a day apart: the status can only go out because the page rang the daemon.
        try world.writeConfig(["http": .object(["listen": .string("127.0.0.1:0")]),
                               "outbox": .object(["flushIntervalSeconds": .number("86400")])])
        try await withDaemon(world) { port, database in
            let open = try Binary.run(["open", "--config", world.configPath, "--listen", "127.0.0.1:\(port)", "--feeds"])
            #expect(open.status == 0, "\(open.stderr)")
            let lines = open.stdout.split(separator: "\n").map(String.init)
            let link = try #require(lines.first)
            #expect(link.hasPrefix("http://127.0.0.1:\(port)/login?token="))
            // The sign-in link, then one Atom link per feed (the archive's included).
            #expect(lines.count == 1 + Feed.allCases.count && lines[1].hasPrefix("home: http://127.0.0.1:\(port)/feeds/home.atom?key="))

            let login = try await RawHTTP.request(port: port, String(link.dropFirst("http://127.0.0.1:\(port)".count)))
            #expect(login.status == 303 && login.headers["location"] == "/home")
            let setCookie: String = try #require(login.headers["set-cookie"])
            let cookie = String(try #require(setCookie.split(separator: ";").first))
            let compose = try await RawHTTP.request(port: port, "/compose", headers: ["Cookie": cookie])
            let csrf = try #require(ReaderPage.csrf(in: compose.text))
            let text = "Composed in the reader \(UUID().uuidString.prefix(8))"
            let queued = try await RawHTTP.request(
                port: port, "/compose", method: "POST",
                headers: ["Cookie": cookie, "Origin": "http://127.0.0.1:\(port)", "Content-Type": "application/x-www-form-urlencoded"],
                body: "text=\(text.replacingOccurrences(of: " ", with: "+"))&action=queue&csrf=\(csrf)")
            #expect(queued.status == 303 && queued.headers["location"] == "/outbox")
            // The daemon was rung: it posts at once, not at its next flush (a day away).
            #expect(try await eventually { try await database.outboxItems().first?.state == .sent })
            #expect(world.emulator.postedStatuses.filter { $0.text == text }.count == 1)
            let outbox = try await RawHTTP.request(port: port, "/outbox", headers: ["Cookie": cookie])
            #expect(outbox.text.contains(#"<td class="state">sent</td>"#) && outbox.text.contains(#"class="sent" href="https://x.com/i/web/status/"#))

            // The Atom key printed for home opens home's feed.
            let atom = String(lines[1].dropFirst("home: http://127.0.0.1:\(port)".count))
            let feed = try await RawHTTP.request(port: port, atom)
            #expect(feed.status == 200)
        }
    }

    /// `twfeed serve` reads the store read-only, and its compose page queues as `twfeed
    /// post` does: the status waits in the outbox for a daemon.
    @Test func serveQueuesAsPostDoes() async throws {
        let world = try Self.world()
        _ = try AppDatabase.open(path: try world.config.storage.database)
        let (server, port) = try await Binary.serve(world)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let open = try Binary.run(["open", "--config", world.configPath, "--listen", "127.0.0.1:\(port)"])
        let link = String(try #require(open.stdout.split(separator: "\n").first))
        let login = try await RawHTTP.request(port: port, String(link.dropFirst("http://127.0.0.1:\(port)".count)))
        let setCookie: String = try #require(login.headers["set-cookie"])
        let cookie = String(try #require(setCookie.split(separator: ";").first))
        let compose = try await RawHTTP.request(port: port, "/compose", headers: ["Cookie": cookie])
        #expect(compose.text.contains("daemon not running"))
        let csrf = try #require(ReaderPage.csrf(in: compose.text))
        let queued = try await RawHTTP.request(
            port: port, "/compose", method: "POST",
            headers: ["Cookie": cookie, "Origin": "http://127.0.0.1:\(port)", "Content-Type": "application/x-www-form-urlencoded"],
            body: "text=queued+from+serve&action=queue&csrf=\(csrf)")
        #expect(queued.status == 303)
        let items = try await StoreReader.open(path: try world.config.storage.database).outboxItems()
        #expect(items.map(\.text) == ["queued from serve"] && items.first?.state == .pending)
        #expect(world.emulator.postedStatuses.isEmpty, "nothing posts without the daemon")
    }

    @Test(.enabled(if: Binary.canSwitchUser, "needs root and setpriv to act as another user"))
    func anotherLocalUserGetsNothing() async throws {
        let world = try Self.world()
        // The folder is open to everyone, as a home directory often is: only the files' modes protect them.
        chmod(world.folder, 0o755)
        try await withDaemon(world) { port, _ in
            let secretPath = ReaderSecret.path(config: try world.config)
            // Off the cooperative pool: the daemon's reader, in this process, answers the curl.
            func asNobody(_ command: [String]) async throws -> Binary.Result {
                try await Binary.offThePool { try Binary.runAs(uid: 65534, command: command) }
            }
            for path in ["/mentions", "/home", "/api/feed/mentions", "/outbox", "/compose"] {
                let answer = try await asNobody(["/usr/bin/curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)\(path)"])
                #expect(answer.stdout == "401", "\(path) as nobody: \(answer.stdout) \(answer.stderr)")
            }
            let read = try await asNobody(["/bin/cat", secretPath])
            #expect(read.status != 0 && read.stdout.isEmpty, "nobody read the secret")
            let open = try await asNobody([Binary.twfeed, "open", "--config", world.configPath, "--listen", "127.0.0.1:\(port)"])
            #expect(open.status != 0 && !open.stdout.contains("token="), "nobody got a link: \(open.stdout)")
        }
    }

    @Test func openNeedsAListenAddressAndNoneIsRefusedWithRemoteAccess() async throws {
        let world = try TestWorld(tweets: 1)
        let open = try Binary.run(["open", "--config", world.configPath])
        #expect(open.status == 69 && open.stderr.contains("http.listen: not set"))
        #expect(open.stdout.isEmpty)

        try world.writeConfig(["http": .object(["listen": .string("0.0.0.0:8765"), "allowRemote": .bool(true), "auth": .string("none")])])
        for command in [["run"], ["serve"], ["open"]] {
            let refused = try Binary.run(command + ["--config", world.configPath])
            #expect(refused.status == 78, "\(command): \(refused.status)")
            #expect(refused.stderr.contains("http.auth: \"none\" with http.allowRemote"), "\(command): \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1)
        }
        try world.writeConfig(["http": .object(["listen": .string("127.0.0.1:8765"), "auth": .string("nobody")])])
        let unknown = try Binary.run(["open", "--config", world.configPath])
        #expect(unknown.status == 78 && unknown.stderr.contains(#"http.auth: unknown access "nobody" (use token or none)"#))
    }

    /// On a machine without a desktop the opener fails, loudly (xdg-open tries each
    /// browser and complains of each): twfeed prints the link, then one line of its own.
    @Test func openBrowserOnAHeadlessMachineSaysOneLineOfItsOwn() async throws {
        let world = try TestWorld(tweets: 1)
        try world.writeConfig(["http": .object(["listen": .string("127.0.0.1:8765")])])
        let opener = "\(world.folder)/no-browser"
        let script = "#!/bin/sh\nfor i in 1 2 3 4 5 6; do echo \"xdg-open: no method available for opening '$1'\" >&2; done\nexit 3\n"
        try #require(FileManager.default.createFile(atPath: opener, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
        let open = try Binary.run(["open", "--browser", "--config", world.configPath], environment: ["BROWSER": opener])
        #expect(open.status == 69)
        #expect(open.stdout.hasPrefix("http://127.0.0.1:8765/login?token="))
        #expect(open.stderr == "twfeed: \(opener) exited 3; open the link above by hand\n", "\(open.stderr)")
    }
}
