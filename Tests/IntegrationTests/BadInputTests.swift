import Foundation
import GRDB
import Testing
@testable import TwfeedKit
@testable import TwfeedStore
import TwfeedTesting

/// docs/BAD-INPUT.md, row by row: each bad input given to the real `twfeed` binary gets
/// exactly one line naming the culprit, a distinct exit code, and loses nothing stored.
@Suite(.serialized, .tags(.integration))
struct BadInputTests {
    /// A private folder with a valid credentials file and a config naming a database in it.
    final class Folder {
        let path: String
        var config: String { "\(path)/config.json" }
        var credentials: String { "\(path)/credentials.json" }
        var database: String { "\(path)/twfeed.sqlite" }

        init(database: String? = nil) throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-bad-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Credentials(consumerKey: "ck", consumerSecret: "cs", accessToken: "at", accessTokenSecret: "as").write(to: credentials)
            try writeConfig(database: database ?? self.database)
        }

        func writeConfig(database: String, credentials: String? = nil) throws {
            let text = #"{"credentials": "\#(credentials ?? self.credentials)", "storage": {"database": "\#(database)"}, "api": {"baseURL": "http://127.0.0.1:1"}}"#
            try text.write(toFile: config, atomically: true, encoding: .utf8)
        }

        func run(_ arguments: [String]) throws -> Binary.Result {
            try Binary.run(arguments + ["--config", config])
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static func expectOneLine(_ result: Binary.Result, _ line: String, exit code: Int32,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == code, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr == "twfeed: \(line)\n", sourceLocation: sourceLocation)
    }

    // MARK: Config

    @Test(arguments: [
        (#"{"images": {"maxCacheMB": 1e19}}"#, "images.maxCacheMB: 1e+19 is out of range: must be between 1 and 1048576"),
        (#"{"api": {"timeoutSeconds": -5}}"#, "api.timeoutSeconds: -5 is out of range: must be between 1 and 600"),
        (#"{"storage": {"keepDays": 1.5}}"#, "storage.keepDays: 1.5 must be a whole number"),
        (#"{"feeds": {"home": {"intervalSeconds": 1e400}}}"#, "feeds.home.intervalSeconds: inf is out of range: must be between 15 and 86400"),
        (#"{"api": {"baseURL": "example.com"}}"#, #"api.baseURL: "example.com" is not an http(s) URL"#),
        (#"{"log": {"level": "loud"}}"#, #"log.level: unknown level "loud" (use trace, debug, info, notice, warning, error or critical)"#),
        (#"{"bogus": 1}"#, "bogus: unknown key (allowed: api, credentials, feeds, storage, images, outbox, log, http, graph)"),
        ("[]", "the top level: must be an object, not an array"),
        ("", "invalid JSON at line 1, column 1: unexpected end of input"),
    ])
    func aBadConfigValueIsOneLineAndExit78(config: String, expected: String) throws {
        let folder = try Folder()
        try config.write(toFile: folder.config, atomically: true, encoding: .utf8)
        Self.expectOneLine(try folder.run(["feed", "home"]), "\(folder.config): \(expected)", exit: 78)
    }

    // MARK: Credentials

    @Test(arguments: [
        (nil, 0o600, "cannot read credentials file: No such file or directory", 78),
        ("garbage", 0o600, "invalid JSON at line 1, column 1: unexpected character 'g'", 78),
        (#"{"consumerKey": "a"}"#, 0o600, "missing consumerSecret", 78),
        (#"{"consumerKey": "a", "consumerSecret": "b", "userId": "bob"}"#, 0o600, #"userId must be a user id (digits), not "bob""#, 78),
        (#"{"consumerKey": "a", "consumerSecret": "b", "accessToken": "c", "accessTokenSecret": "d"}"#, 0o640,
         "credentials file is readable by others (mode 640); run chmod 600 PATH", 77),
    ] as [(String?, Int, String, Int32)])
    func badCredentialsAreOneLineNamingTheFile(content: String?, mode: Int, expected: String, code: Int32) throws {
        let folder = try Folder()
        try FileManager.default.removeItem(atPath: folder.credentials)
        if let content {
            try content.write(toFile: folder.credentials, atomically: true, encoding: .utf8)
            chmod(folder.credentials, mode_t(mode))
        }
        let message = expected.replacingOccurrences(of: "PATH", with: folder.credentials)
        Self.expectOneLine(try folder.run(["run"]), "\(folder.credentials): \(message)", exit: code)
    }

    /// Root reads any file, so as root these rows run twfeed as nobody (uid 65534), who
    /// may enter the folder (0755) and read the config (0644) but not what is under test.
    static var canBeRefused: Bool { getuid() != 0 || Binary.canSwitchUser }

    static func runRefused(_ folder: Folder, _ arguments: [String]) throws -> Binary.Result {
        let command = arguments + ["--config", folder.config]
        return getuid() == 0 ? try Binary.runAs(uid: 65534, command) : try Binary.run(command)
    }

    @Test(.enabled(if: canBeRefused, "as root, needs setpriv to run as another user"))
    func anUnreadableCredentialsFileIsOneLine() throws {
        let folder = try Folder()
        chmod(folder.path, 0o755)
        chmod(folder.config, 0o644)
        chmod(folder.credentials, 0o000)
        Self.expectOneLine(try Self.runRefused(folder, ["run"]), "\(folder.credentials): cannot read credentials file: Permission denied", exit: 78)
    }

    /// A config in a folder the user may not enter is there, not missing: it says so.
    @Test(.enabled(if: canBeRefused, "as root, needs setpriv to run as another user"))
    func aConfigInAFolderTheUserMayNotEnterIsUnreadableNotMissing() throws {
        let folder = try Folder()
        chmod(folder.path, 0o000)
        defer { chmod(folder.path, 0o700) }
        Self.expectOneLine(try Self.runRefused(folder, ["feed", "home"]), "\(folder.config): cannot read config file: Permission denied", exit: 78)
    }

    // MARK: Status text

    @Test(arguments: [
        ("", "status is empty"),
        (" \n\t ", "status is empty"),
        (String(repeating: "日", count: 141), "status is 282/280 characters"),
        (String(repeating: "a", count: 281), "status is 281/280 characters"),
    ])
    func aStatusTheAPIWouldRefuseIsExit65AndNotQueued(text: String, expected: String) throws {
        let folder = try Folder()
        Self.expectOneLine(try folder.run(["post", text]), expected, exit: 65)
        #expect(!FileManager.default.fileExists(atPath: folder.database))
    }

    // MARK: Numbers on the command line

    @Test(arguments: [
        (["feed", "home", "--limit", "-1"], "--limit must be at least 1"),
        (["feed", "home", "--limit", "1e19"], "The value '1e19' is invalid for '--limit <limit>'"),
        (["search", "x", "--limit", "99999999999999999999"], "The value '99999999999999999999' is invalid for '--limit <limit>'"),
        (["feed", "home", "--before", "abc"], "--before: abc is not a tweet id (a positive whole number)"),
        (["feed", "home", "--before", "-5"], "--before: -5 is not a tweet id (a positive whole number)"),
        (["feed", "home", "--before", "99999999999999999999"], "--before: 99999999999999999999 is not a tweet id (a positive whole number)"),
        (["post", "--reply-to", "-1", "x"], #"--reply-to must be a tweet id (digits), not "-1""#),
        (["logs", "--lines", "-3"], "--lines must not be negative"),
        (["outbox", "retry", "99999999999999999999"], "The value '99999999999999999999' is invalid for '<id>'"),
        (["feed", "sideways"], "The value 'sideways' is invalid for '<feed>'. Please provide one of 'home', 'mentions', 'retweets', 'posts' or 'likes'."),
    ])
    func aBadNumberOnTheCommandLineIsOneLineAndExit64(arguments: [String], expected: String) throws {
        let folder = try Folder()
        Self.expectOneLine(try folder.run(arguments), "\(expected) (see twfeed --help)", exit: 64)
    }

    // MARK: The database

    @Test func readersOfAMissingDatabaseSaySoAndCreateNothing() throws {
        let folder = try Folder()
        for command in [["feed", "home"], ["search", "x"]] {
            Self.expectOneLine(try folder.run(command), "no tweets cached yet: \(folder.database) does not exist (start twfeed run)", exit: 0)
        }
        #expect(try folder.run(["outbox", "list"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.database))
    }

    @Test func aFileThatIsNotADatabaseIsExit74AndLeftAsItWas() throws {
        let folder = try Folder()
        let garbage = Data(String(repeating: "not a database. ", count: 64).utf8)
        try #require(FileManager.default.createFile(atPath: folder.database, contents: garbage))
        for command in [["feed", "home"], ["post", "hi"], ["run"]] {
            Self.expectOneLine(try folder.run(command), "\(folder.database): cannot open the database: file is not a database", exit: 74)
        }
        #expect(FileManager.default.contents(atPath: folder.database) == garbage)
    }

    /// Before the fix, `post` and `run` wrote to a newer twfeed's database (only the
    /// readers refused it).
    @Test func aNewerTwfeedsDatabaseIsRefusedByReadersAndWriters() throws {
        let folder = try Folder()
        #expect(try folder.run(["post", "queued before the downgrade"]).status == 0)
        try DatabaseQueue(path: folder.database).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        let line = "\(folder.database): written by a newer twfeed (its schema has migrations this build does not know); upgrade twfeed"
        for command in [["feed", "home"], ["post", "hi"], ["run"]] {
            Self.expectOneLine(try folder.run(command), line, exit: 78)
        }
        let texts = try DatabaseQueue(path: folder.database).read { try String.fetchAll($0, sql: "SELECT text FROM outbox") }
        #expect(texts == ["queued before the downgrade"])
    }

    /// A read-only file system (a tmpfs remounted read-only; root ignores permission bits,
    /// so as a user the folder and file are made 0555/0444 instead).
    @Test func aReadOnlyDatabaseServesReadersAndRefusesWritersInOneLine() throws {
        let folder = try Folder()
        let storage = "\(folder.path)/storage"
        try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
        let root = getuid() == 0
        if root {
            guard Self.mount(["-t", "tmpfs", "-o", "size=4m", "tmpfs", storage]) else {
                print("skipped: cannot mount a tmpfs here")
                return
            }
        }
        defer { if root { _ = Self.mount(["-u", storage], command: "/bin/umount") } }
        let database = "\(storage)/twfeed.sqlite"
        try folder.writeConfig(database: database)
        #expect(try folder.run(["post", "written before the folder went read-only"]).status == 0)
        if root {
            #expect(Self.mount(["-o", "remount,ro", storage]))
        } else {
            chmod(database, 0o444)
            chmod(storage, 0o555)
        }
        defer { if !root { chmod(storage, 0o755) } }
        let list = try folder.run(["outbox", "list", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("written before the folder went read-only"))
        #expect(try folder.run(["feed", "home"]).status == 0)
        Self.expectOneLine(try folder.run(["post", "hi"]), "\(database): cannot open the database: unable to open database file", exit: 74)
        let run = try folder.run(["run"])
        #expect(run.status == 74)
        #expect(run.stderr.hasPrefix("twfeed: \(database).lock: cannot open the daemon lock: "))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    /// A full disk (a 1 MB tmpfs, filled; as root only): `post` says so in one line, exit
    /// 74, and what was queued before is still there and sound.
    @Test func aFullDiskIsOneLineAndLosesNothing() throws {
        guard getuid() == 0 else {
            print("skipped: mounting a small tmpfs needs root")
            return
        }
        let folder = try Folder()
        let storage = "\(folder.path)/storage"
        try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
        guard Self.mount(["-t", "tmpfs", "-o", "size=1m", "tmpfs", storage]) else {
            print("skipped: cannot mount a tmpfs here")
            return
        }
        defer { _ = Self.mount(["-u", storage], command: "/bin/umount") }
        let database = "\(storage)/twfeed.sqlite"
        try folder.writeConfig(database: database)
        #expect(try folder.run(["post", "queued while there was room"]).status == 0)
        // Fill what is left.
        try #require(FileManager.default.createFile(atPath: "\(storage)/filler", contents: nil))
        let filler = try #require(FileHandle(forWritingAtPath: "\(storage)/filler"))
        let block = Data(count: 4096)
        while (try? filler.write(contentsOf: block)) != nil {}
        try? filler.close()
        var result = try folder.run(["post", String(repeating: "x", count: 200)])
        for n in 0 ..< 50 where result.status == 0 {
            result = try folder.run(["post", "\(n) " + String(repeating: "y", count: 200)])
        }
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("twfeed: \(database): "), "\(result.stderr)")
        #expect(result.stderr.contains("disk is full"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        try? FileManager.default.removeItem(atPath: "\(storage)/filler")
        let (first, check) = try DatabaseQueue(path: database).read { db in
            (try String.fetchOne(db, sql: "SELECT text FROM outbox ORDER BY id LIMIT 1"),
             try String.fetchOne(db, sql: "PRAGMA integrity_check"))
        }
        #expect(first == "queued while there was room")
        #expect(check == "ok")
    }

    static func mount(_ arguments: [String], command: String = "/bin/mount") -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = command.hasSuffix("umount") ? arguments.filter { $0 != "-u" } : arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// docs/BAD-INPUT.md's rows for `twfeed serve`: each mistake is one line and its own code.
@Suite(.serialized, .tags(.integration))
struct ServeBadInputTests {
    @Test func serveSaysWhatIsMissingOrWrongInOneLine() throws {
        let folder = try BadInputTests.Folder()
        // No database yet: 69, and nothing created.
        var result = try folder.run(["serve", "--listen", "127.0.0.1:0"])
        BadInputTests.expectOneLine(result, "\(folder.database): no database yet: run twfeed run", exit: 69)
        #expect(!FileManager.default.fileExists(atPath: folder.database))
        _ = try AppDatabase.open(path: folder.database)
        result = try folder.run(["serve"])
        BadInputTests.expectOneLine(result, "\(folder.config): http.listen: not set; set it (e.g. \"127.0.0.1:8765\") or pass --listen", exit: 78)
        result = try folder.run(["serve", "--listen", "0.0.0.0:8765"])
        BadInputTests.expectOneLine(result, "\(folder.config): --listen 0.0.0.0:8765 is not a loopback address: set http.allowRemote to true to serve your timeline to the network", exit: 78)
        result = try folder.run(["serve", "--listen", "8765"])
        BadInputTests.expectOneLine(result, "--listen: \"8765\" has no port (use HOST:PORT, e.g. 127.0.0.1:8765) (see twfeed --help)", exit: 64)
    }

    @Test func aTakenPortIsExit69NamingTheAddress() throws {
        let folder = try BadInputTests.Folder()
        _ = try AppDatabase.open(path: folder.database)
        // Hold a port with a plain listening socket.
        let held = try LoopbackSocket(listening: true)
        defer { held.close() }
        let port = held.port
        let result = try folder.run(["serve", "--listen", "127.0.0.1:\(port)"])
        #expect(result.status == 69)
        #expect(result.stderr.hasSuffix("twfeed: http.listen 127.0.0.1:\(port): cannot listen: Address already in use\n"), "\(result.stderr)")
    }
}
