import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStatus

/// `--account NAME`: which names are accounts, which config file one means, and where a
/// command run from a shell looks for the instance's files.
struct HostAccountTests {
    func refusal(_ name: String) -> TwfeedError? {
        do {
            _ = try HostAccount(name)
            return nil
        } catch {
            return error as? TwfeedError
        }
    }

    @Test func aPlainWordIsAnAccount() throws {
        for name in ["alice", "Work_2", "project-x", String(repeating: "a", count: 24)] {
            #expect(try HostAccount(name).name == name)
        }
    }

    /// A name becomes a file name and a unit's instance: a separator, a dot, a leading
    /// dash, an empty or an overlong name is a usage error that names it.
    @Test(arguments: ["a/b", "../etc", ".hidden", "a.b", "-x", "al ice", "ünï", String(repeating: "a", count: 25)])
    func aNameThatIsNotAPlainWordIsAUsageError(name: String) throws {
        let error = try #require(refusal(name))
        #expect(error.code == .usage)
        #expect(error.message.contains("\"\(name)\""))
    }

    @Test func anEmptyOrReservedNameIsAUsageError() throws {
        #expect(refusal("")?.code == .usage)
        #expect(refusal("")?.message.contains("empty") == true)
        // /etc/twfeed/config.json and credentials.json are the single unit's files.
        #expect(refusal("config")?.code == .usage)
        #expect(refusal("credentials")?.code == .usage)
    }

    @Test func theConfigIsNameDotJsonInTheConfigurationDirectory() throws {
        let alice = try HostAccount("alice")
        #expect(alice.configPath(environment: [:]) == "/etc/twfeed/alice.json")
        #expect(alice.configPath(environment: ["CONFIGURATION_DIRECTORY": "/srv/conf:/other"]) == "/srv/conf/alice.json")
        // --account outranks $TWFEED_CONFIG, as --config does.
        let located = ConfigLoader.locate(explicit: nil, account: alice, environment: ["TWFEED_CONFIG": "/x.json"])
        #expect(located.path == "/etc/twfeed/alice.json" && located.required)
    }

    @Test func aMissingAccountConfigIsAConfigurationErrorNamingTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-account-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["CONFIGURATION_DIRECTORY": folder, "HOME": "/home/ada"]
        let error = #expect(throws: TwfeedError.self) {
            try ConfigLoader.load(account: try HostAccount("bob"), environment: environment)
        }
        #expect(error?.code == .configuration)
        #expect(error?.message.hasPrefix("\(folder)/bob.json:") == true)
        try Data(#"{"storage": {"keepDays": 30}}"#.utf8).write(to: URL(fileURLWithPath: "\(folder)/bob.json"))
        let config = try ConfigLoader.load(account: try HostAccount("bob"), environment: environment)
        #expect(config.storage.keepDays == 30)
        #expect(config.account?.name == "bob")
        #expect(config.storage.database == "/var/lib/twfeed/bob/twfeed.sqlite")
    }

    /// From a shell (no systemd variables, root's HOME), an account's files are its
    /// instance's, never the home directory's.
    @Test func fromAShellAnAccountsFilesAreItsInstances() throws {
        let config = TwfeedConfig(environment: ["HOME": "/root"], account: try HostAccount("alice"))
        #expect(config.storage.database == "/var/lib/twfeed/alice/twfeed.sqlite")
        #expect(config.storage.imageCache == "/var/cache/twfeed/alice/images")
        #expect(config.credentials == "/etc/twfeed/credentials/alice.json")
        #expect(StatusSnapshot.path(config: config, environment: [:]) == "/run/twfeed/alice/status.json")
        #expect(WakeSocket.path(config: config, environment: [:]) == "/run/twfeed/alice/wake.sock")
    }

    /// `twfeed --account bob status` reads bob's snapshot or none: never the single
    /// unit's `/run/twfeed/status.json`, which is another account's daemon.
    @Test func anAccountNeverReadsTheSingleUnitsSnapshot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-account-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let systemd = "\(folder)/status.json"
        try StatusSnapshot(pid: 1, startedAt: Date(), heartbeatAt: Date(), dialect: "v2").write(to: systemd)
        let bob = TwfeedConfig(environment: ["HOME": folder], account: try HostAccount("bob"))
        #expect(StatusSnapshot.readerPath(config: bob, environment: [:], systemdPath: systemd) == "/run/twfeed/bob/status.json")
        let single = TwfeedConfig(environment: ["HOME": folder])
        #expect(StatusSnapshot.readerPath(config: single, environment: [:], systemdPath: systemd) == systemd)
    }
}
