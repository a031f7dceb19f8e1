import Foundation
import Testing

/// `--account NAME` on the real binary: every command takes it, before or after its
/// name, and means `$CONFIGURATION_DIRECTORY/NAME.json`.
@Suite(.tags(.integration))
struct AccountCommandTests {
    /// Every command that reads a config, with the arguments it needs to get that far
    /// (`post --dry-run` is left out: it measures with the defaults when no config loads).
    static let commands: [[String]] = [
        ["run"], ["status"], ["feed", "home"], ["search", "x"], ["post", "hello"], ["outbox"], ["outbox", "list"],
        ["outbox", "retry", "1"], ["outbox", "cancel", "1"], ["open"], ["show", "1"], ["fetch", "1"], ["serve"], ["usage"], ["gaps"],
        ["fill", "home", "--max-usd", "1"], ["login"], ["logout"], ["logs"],
    ]

    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-accounts-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The account's file is the one read: a missing `alice.json` is named (78), in
    /// either place on the command line.
    @Test(arguments: commands)
    func everyCommandReadsTheAccountsConfig(command: [String]) throws {
        let configs = try folder()
        defer { try? FileManager.default.removeItem(atPath: configs) }
        let environment = ["CONFIGURATION_DIRECTORY": configs]
        for arguments in [["--account", "alice"] + command, command + ["--account", "alice"]] {
            let result = try Binary.run(arguments, environment: environment)
            #expect(result.status == 78, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("\(configs)/alice.json: config file not found"), "\(arguments): \(result.stderr)")
        }
    }

    @Test(arguments: commands)
    func aBadNameOrTwoConfigsIsAUsageError(command: [String]) throws {
        let bad = try Binary.run(["--account", "../alice"] + command)
        #expect(bad.status == 64, "\(command): \(bad.stderr)")
        #expect(bad.stderr.contains("\"../alice\""), "\(command): \(bad.stderr)")
        let both = try Binary.run(command + ["--account", "alice", "--config", "/etc/twfeed/config.json"])
        #expect(both.status == 64, "\(command): \(both.stderr)")
        #expect(both.stderr.contains("--account and --config"), "\(command): \(both.stderr)")
    }

    /// An account's config is read like any other: `status` finds the account's database
    /// path in its state directory, not in HOME.
    @Test func statusNamesTheAccountsDatabase() throws {
        let configs = try folder()
        defer { try? FileManager.default.removeItem(atPath: configs) }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: "\(configs)/alice.json"))
        let result = try Binary.run(["--account", "alice", "status", "--json"], environment: ["CONFIGURATION_DIRECTORY": configs])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stdout.contains(#""path":"/var/lib/twfeed/alice/twfeed.sqlite""#), "\(result.stdout)")
    }

    @Test func theDemoRefusesAnAccount() throws {
        let result = try Binary.run(["demo", "--account", "alice"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--account"), "\(result.stderr)")
    }
}
