import Foundation
import Testing
import TwfeedTesting
import TwfeedEmulator
@testable import TwfeedKit
@testable import TwfeedCore

/// The real `twfeed run` as systemd and an operator see it: notifications, signals,
/// `twfeed status`, `twfeed logs`, and what its log lines never hold.
@Suite(.serialized, .tags(.integration))
struct OperationsTests {
    @Test(arguments: ["abstract", "path"])
    func systemdHearsReadyStatusWatchdogReloadingAndStopping(socket: String) async throws {
        let world = try TestWorld(tweets: 50)
        let name = socket == "abstract" ? "@twfeed-test-\(UUID().uuidString.prefix(8))" : "\(world.folder)/notify.sock"
        let listener = try NotifyListener(name: name)
        defer { listener.close() }
        let process = try Binary.start(
            ["run", "--config", world.configPath], logFile: "\(world.folder)/run.log",
            environment: ["NOTIFY_SOCKET": name, "WATCHDOG_USEC": "400000"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }

        #expect(await eventually { listener.messages.contains("READY=1") })
        // After the first cycles: one line per feed and the outbox.
        let summary = #/^STATUS=home \+\d+ · mentions (\+\d+|0|waiting) · retweets (\+\d+|0|waiting) · outbox 0 pending$/#
        #expect(await eventually { listener.messages.contains { $0.wholeMatch(of: summary) != nil } }, "\(listener.messages)")
        // WATCHDOG_USEC=0.4 s: a ping every 0.2 s.
        #expect(await eventually { listener.messages.filter { $0 == "WATCHDOG=1" }.count >= 3 })

        let beforeReload = listener.messages.count
        kill(process.processIdentifier, SIGHUP)
        #expect(await eventually {
            let after = Array(listener.messages.dropFirst(beforeReload))
            guard let reloading = after.firstIndex(where: { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") }) else { return false }
            return after[reloading...].contains("READY=1")
        }, "\(listener.messages.dropFirst(beforeReload))")

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let messages = listener.messages
        let stopping = try #require(messages.lastIndex(of: "STOPPING=1"))
        #expect(!messages[stopping...].contains("READY=1"))
        #expect(messages.filter { $0 == "READY=1" }.count == 2)
    }

    @Test func statusShowsPollsAFeedsErrorTheOutboxAndNotRunningOnceKilled() async throws {
        let world = try TestWorld(tweets: 40)
        try world.writeConfig(["log": .object(["file": .string(world.logPath)])])
        // As systemd's RuntimeDirectory=: where the snapshot and the wake socket go.
        let environment = ["RUNTIME_DIRECTORY": "\(world.folder)/run"]
        try FileManager.default.createDirectory(atPath: "\(world.folder)/run", withIntermediateDirectories: true)
        // Home's timeline answers 503; so does posting (which leaves the status
        // `uncertain`: a 5xx may come after the server took it).
        world.emulator.inject(.status(503), times: 1000, pathContains: "reverse_chronological")
        world.emulator.inject(.status(503), times: 1000, pathContains: "/2/tweets")
        #expect(try Binary.run(["post", "stays uncertain", "--config", world.configPath], environment: environment).status == 0)
        #expect(try Binary.run(["post", "withdrawn", "--config", world.configPath], environment: environment).status == 0)
        #expect(try Binary.run(["outbox", "cancel", "2", "--config", world.configPath], environment: environment).status == 0)

        let process = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/run.log", environment: environment)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }

        var status: Int32 = -1
        var report: JSONValue = .null
        let settled = try await eventually {
            (status, report) = try world.status(environment: environment)
            // The counts come from the database; the daemon part from its snapshot file.
            return report["daemon"]?["running"] == .bool(true)
                && report["feeds"]?["mentions"]?["lastSuccessAt"]?.string != nil
                && report["feeds"]?["retweets"]?["lastSuccessAt"]?.string != nil
                && report["feeds"]?["home"]?["lastError"]?.string != nil
                && world.emulator.requestCount(pathContains: "/2/tweets") >= 1
                && report["outbox"]?["uncertain"] == .number("1")
        }
        #expect(settled, "\(report) \((try? String(contentsOfFile: "\(world.folder)/run.log", encoding: .utf8)) ?? "")")
        #expect(status == 1)
        #expect(report["health"]?.string == "degraded")
        #expect(report["daemon"]?["running"] == .bool(true))
        #expect(report["daemon"]?["pid"] == .number(String(process.processIdentifier)))
        #expect(report["daemon"]?["heartbeatAgeSeconds"]?.int != nil)
        let home = try #require(report["feeds"]?["home"])
        #expect(home["lastError"]?.string?.contains("503") == true)
        #expect(home["lastSuccessAt"] == .null)
        #expect(home["nextPollAt"]?.string != nil)
        let mentions = try #require(report["feeds"]?["mentions"])
        #expect((mentions["tweets"]?.int ?? 0) > 0)
        #expect(mentions["newestId"]?.string != nil)
        #expect(mentions["lastPollAt"]?.string != nil)
        #expect(mentions["lastError"] == .null)
        #expect(mentions["rateLimitRemaining"]?.int != nil)
        #expect(mentions["rateLimitResetAt"]?.string != nil)
        #expect(report["outbox"]?["cancelled"] == .number("1"))
        #expect(report["outbox"]?["sent"] == .number("0"))
        #expect(report["outbox"]?["oldestPendingAgeSeconds"]?.int != nil)
        #expect(report["images"]?["files"]?.int != nil)
        #expect((report["database"]?["bytes"]?.int ?? 0) > 0)
        // The account the feeds belong to: the emulator's signed-in user.
        #expect(report["account"]?["username"]?.string == "twfeed_demo")
        #expect(report["account"]?["id"]?.string == "1700000000000000001")

        // The table: compact, 80 columns.
        let table = try Binary.run(["status", "--config", world.configPath], environment: environment)
        #expect(table.status == 1)
        let rows = table.stdout.split(separator: "\n")
        #expect(rows.allSatisfy { $0.count <= 80 }, "\(table.stdout)")
        #expect(rows.contains { $0.hasPrefix("home ") && $0.contains("HTTP 503") })
        #expect(rows.contains { $0.hasPrefix("outbox ") && $0.contains("1 uncertain") && $0.contains("1 cancelled") })
        #expect(rows.contains { $0.hasPrefix("account ") && $0.contains("@twfeed_demo") })

        // Another user cannot open the database (it is root's, 0600) but sees the same
        // status through the world-readable snapshot.
        if Binary.canSwitchUser {
            // The snapshot is refreshed after each cycle: wait until it has caught up with
            // what the database showed above.
            var otherStatus: Int32 = -1
            var other: JSONValue = .null
            let caughtUp = try await eventually {
                (otherStatus, other) = try world.status(environment: environment, asNobody: true)
                return other["feeds"]?["home"]?["lastError"]?.string != nil && other["outbox"]?["uncertain"] == .number("1")
                    && other["feeds"]?["mentions"]?["tweets"] == mentions["tweets"]
            }
            #expect(caughtUp, "\(other)")
            #expect(otherStatus == 1)
            #expect(other["countsFrom"]?.string == "snapshot")
            #expect(other["feeds"]?["mentions"]?["tweets"] == mentions["tweets"])
            #expect(other["feeds"]?["home"]?["lastError"]?.string?.contains("503") == true)
            #expect(other["outbox"]?["uncertain"] == .number("1"))
            #expect(other["outbox"]?["cancelled"] == .number("1"))
            #expect(other["daemon"]?["pid"] == .number(String(process.processIdentifier)))
        }

        // `twfeed logs --level warn`: only warnings and errors, from the log file.
        let warnings = try Binary.run(["logs", "--level", "warn", "--config", world.configPath])
        #expect(warnings.status == 0, "\(warnings.stderr)")
        let lines = warnings.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains("event=poll.failed") && $0.contains("feed=home") })
        #expect(lines.contains { $0.contains("event=outbox.uncertain") })
        #expect(lines.allSatisfy { $0.contains(" level=warn ") || $0.contains(" level=error ") || $0.contains(" level=critical ") },
                "\(warnings.stdout)")
        let polls = try Binary.run(["logs", "--event", "poll.*", "--level", "info", "--config", world.configPath])
        #expect(polls.stdout.split(separator: "\n").allSatisfy { $0.contains(" event=poll.") })
        #expect(polls.stdout.contains("event=poll.done"))

        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let (deadStatus, dead) = try world.status(environment: environment)
        #expect(deadStatus == 3)
        #expect(dead["daemon"]?["running"] == .bool(false))
        #expect(dead["health"]?.string == "not-running")
    }

    /// A full debug-level run with reloads, a refused config, a log rotation and a
    /// post: every line is one event, and no line holds a secret.
    @Test func signalsReloadRefuseAndReopenAndNoLineHoldsASecret() async throws {
        let world = try TestWorld(tweets: 30)
        let debugLog: JSONValue = .object(["level": .string("debug"), "file": .string(world.logPath)])
        try world.writeConfig(["log": debugLog])
        let process = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/stderr.log")
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        func log(_ path: String? = nil) -> String { (try? String(contentsOfFile: path ?? world.logPath, encoding: .utf8)) ?? "" }

        #expect(await eventually { log().components(separatedBy: "event=poll.done").count == 4 })
        #expect(try Binary.run(["post", "sent during the debug run", "--config", world.configPath]).status == 0)
        #expect(await eventually { log().contains("event=outbox.sent") })

        // An invalid config is refused with its one-line reason; the daemon keeps going.
        try #"{"feeds": {"home": {"intervalSeconds": 5}}}"#.write(toFile: world.configPath, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        #expect(await eventually { log().contains("event=daemon.reload_failed") })
        let refused = try #require(log().split(separator: "\n").first { $0.contains("event=daemon.reload_failed") })
        #expect(refused.contains("level=error"))
        #expect(refused.contains("feeds.home.intervalSeconds: 5 is out of range: must be between 15 and 86400"))
        #expect(process.isRunning)

        // A valid one is applied.
        try world.writeConfig(["log": debugLog, "outbox": .object(["flushIntervalSeconds": .number("30")])])
        kill(process.processIdentifier, SIGHUP)
        #expect(await eventually { log().contains("event=daemon.reload changed=outbox") })

        // logrotate without copytruncate: move the file, SIGUSR1, a new file begins.
        #expect(rename(world.logPath, world.logPath + ".1") == 0)
        kill(process.processIdentifier, SIGUSR1)
        #expect(await eventually { log().contains("event=log.reopened") })
        #expect(!log(world.logPath + ".1").contains("event=log.reopened"))

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(log().contains("event=daemon.stop"))

        let everything = [log(world.logPath + ".1"), log(), log("\(world.folder)/stderr.log")]
        let lines = everything.flatMap { $0.split(separator: "\n") }
        #expect(lines.count > 20)
        #expect(lines.contains { $0.contains("level=debug event=poll.page") })
        let oneEvent = #/^ts=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z level=[a-z]+ event=[a-z_]+\.[a-z_.]+( [a-z_]+=("([^"\\]|\\.)*"|[^ "]*))*$/#
        for line in lines {
            #expect(line.wholeMatch(of: oneEvent) != nil, "not one logfmt event: \(line)")
        }
        let credentials = world.emulator.configuration.credentials
        let secrets = [
            credentials.consumerSecret, credentials.accessTokenSecret,
            PercentEncoding.encode(credentials.consumerSecret), PercentEncoding.encode(credentials.accessTokenSecret),
            OAuthSigner(credentials: try Credentials.load(from: world.credentialsPath), clock: SystemClock()).signingKey,
        ]
        for secret in secrets {
            for (index, text) in everything.enumerated() {
                #expect(!text.contains(secret), "a secret in log \(index)")
            }
        }
    }

    /// Under systemd, standard error is the journal's stream (`JOURNAL_STREAM` names its
    /// device and inode): each line starts with its syslog priority. A stream that is
    /// not the journal's gets none.
    @Test(arguments: [true, false])
    func underTheJournalEachLineCarriesItsSyslogPriority(journal: Bool) async throws {
        let world = try TestWorld(tweets: 10)
        try world.writeConfig(["log": .object(["level": .string("debug")])])
        world.emulator.inject(.status(503), times: 100, pathContains: "reverse_chronological")
        world.emulator.inject(.authFailure, times: 100, pathContains: "mentions")
        let path = "\(world.folder)/stderr.log"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        var info = stat()
        #expect(stat(path, &info) == 0)
        let stream = journal ? "\(info.st_dev):\(info.st_ino)" : "\(info.st_dev):\(info.st_ino + 1)"
        let process = Binary.makeProcess(["run", "--config", world.configPath], environment: ["JOURNAL_STREAM": stream])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        process.standardError = handle
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        func log() -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        #expect(await eventually { log().contains("event=poll.failed") && log().contains("event=auth.failed") })
        process.terminate()
        process.waitUntilExit()
        let lines = log().split(separator: "\n")
        if journal {
            #expect(lines.allSatisfy { $0.wholeMatch(of: #/<[2-7]>ts=.*/#) != nil })
            for (priority, event) in [("<7>", "poll.start"), ("<6>", "daemon.start"), ("<4>", "poll.failed"), ("<3>", "auth.failed")] {
                #expect(lines.contains { $0.hasPrefix(priority) && $0.contains(" event=\(event) ") }, "\(priority) \(event)")
            }
        } else {
            #expect(lines.allSatisfy { $0.hasPrefix("ts=") })
        }
    }
}
