import Foundation
import Testing
import TwfeedTesting
import TwfeedEmulator
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

/// `twfeed login` and `twfeed logout` against the emulator's PIN flow, with a running
/// daemon that follows them.
@Suite(.serialized, .tags(.integration))
struct LoginTests {
    /// Runs `twfeed login`, answering the prompts: the consumer pair when given, then
    /// the PIN the emulator's authorize page shows (or `pin` when given).
    func login(_ world: TestWorld, consumer: (String, String)? = nil, pin: String? = nil) throws -> Binary.Result {
        let session = try Interactive(["login", "--config", world.configPath])
        if let consumer { session.write("\(consumer.0)\n\(consumer.1)\n") }
        var token: String?
        while token == nil, let line = session.readLine() {
            if let match = line.firstMatch(of: #/oauth/authorize\?oauth_token=(\S+)/#) { token = String(match.1) }
        }
        if let token {
            session.write((pin ?? world.emulator.pin(forRequestToken: token) ?? "none") + "\n")
        }
        return try session.finish()
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func loginThenLogoutRoundTripsAndTheDaemonFollows() async throws {
        let world = try TestWorld(tweets: 20)
        try world.writeConfig(["log": .object(["file": .string(world.logPath)])])
        try FileManager.default.removeItem(atPath: world.credentialsPath)
        let demo = world.emulator.configuration.credentials

        // No credentials file: login asks for the consumer pair, then the PIN.
        let first = try login(world, consumer: (demo.consumerKey, demo.consumerSecret))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Signed in as @twfeed_demo"))
        #expect(first.stderr.contains("Consumer key (API key): "))
        #expect(first.stderr.contains("PIN: "))
        #expect(mode(world.credentialsPath) == 0o600)
        let signedIn = try Credentials.load(from: world.credentialsPath)
        #expect(signedIn.consumerKey == demo.consumerKey)
        #expect(signedIn.hasAccessToken)
        #expect(signedIn.accessToken != demo.accessToken)  // a token of its own, from the flow
        // Who signed in, as the flow's answer said: what `import` checks an archive against.
        #expect(signedIn.userID == UserID(1_700_000_000_000_000_001) && signedIn.username == "twfeed_demo")
        #expect(!(first.stdout + first.stderr).contains(signedIn.accessTokenSecret!))

        // The daemon polls with the new token.
        let database = try AppDatabase.open(path: world.databasePath)
        let process = try Binary.start(["run", "--config", world.configPath], logFile: "\(world.folder)/run.log")
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        #expect(try await eventually { try await database.syncState(.home).lastSuccessAt != nil })
        #expect(await eventually { (try? world.status().0) == 0 })

        // Logout keeps the consumer pair, drops the token, and the daemon stops polling
        // without exiting.
        let logout = try Binary.run(["logout", "--config", world.configPath])
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(logout.stdout.contains("Told the running daemon (pid \(process.processIdentifier)) to reload"))
        #expect(mode(world.credentialsPath) == 0o600)
        let signedOut = try Credentials.load(from: world.credentialsPath)
        // The account's id and name went with the token pair.
        #expect(signedOut == Credentials(consumerKey: demo.consumerKey, consumerSecret: demo.consumerSecret))
        func log() -> String { (try? String(contentsOfFile: world.logPath, encoding: .utf8)) ?? "" }
        #expect(await eventually { log().contains("event=auth.signed_out") })
        // The reload line may reach the file just after the sign-out line: wait for it too.
        #expect(await eventually {
            log().contains("event=daemon.reload changed=credentials pid=\(process.processIdentifier) reason=signal signed_in=false")
        })
        var report: JSONValue = .null
        #expect(try await eventually {
            let (status, json) = try world.status()
            report = json
            return status == 1 && json["daemon"]?["signedOut"] == .bool(true)
        }, "\(report)")
        #expect(process.isRunning)
        #expect(try Binary.run(["logout", "--config", world.configPath]).stdout.contains("Not signed in"))

        // Login again reads the consumer pair from the file and signs the daemon back in.
        let again = try login(world)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("Consumer key"))
        #expect(await eventually { log().contains("signed_in=true") })
        #expect(try await eventually { try world.status().1["daemon"]?["signedOut"] == .bool(false) })

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func aWrongPINIsRefusedWithOneLineAndNothingIsWritten() async throws {
        let world = try TestWorld(tweets: 1)
        let before = try String(contentsOfFile: world.credentialsPath, encoding: .utf8)
        let result = try login(world, pin: "0000000")
        #expect(result.status == 65)
        #expect(result.stderr.hasSuffix("twfeed: the PIN was not accepted (HTTP 401): it may be mistyped or expired; run twfeed login again\n"),
                "\(result.stderr)")
        #expect(try String(contentsOfFile: world.credentialsPath, encoding: .utf8) == before)
    }

    @Test func aWrongConsumerKeyIsAPermissionError() async throws {
        let world = try TestWorld(tweets: 1)
        try Credentials(consumerKey: "nobody", consumerSecret: "wrong").write(to: world.credentialsPath)
        let result = try login(world)
        #expect(result.status == 77)
        #expect(result.stderr.contains("the API refused the consumer key and secret (HTTP 401)"))
        #expect(!result.stderr.contains("wrong"))
    }
}
