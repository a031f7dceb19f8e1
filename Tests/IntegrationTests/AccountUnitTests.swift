import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedReader
@testable import TwfeedStatus

/// `systemd/twfeed@.service` against the single unit it copies and the `--account` paths
/// a shell uses: the instance must be hardened the same, and `twfeed --account alice
/// status` run by root must find the files `twfeed@alice` writes.
@Suite(.tags(.integration))
struct AccountUnitTests {
    static let systemdFolder = URL(fileURLWithPath: SystemdUnitTests.unitPath).deletingLastPathComponent()
    static let templatePath = systemdFolder.appendingPathComponent("twfeed@.service").path
    static let conffilePath = systemdFolder.deletingLastPathComponent().appendingPathComponent("packaging/deb/config.json").path

    /// What makes an instance an account's: every other setting is the single unit's.
    static let perAccount: Set = [
        "Description", "ExecStart", "User", "StateDirectory", "CacheDirectory", "LogsDirectory", "RuntimeDirectory", "LoadCredential",
    ]

    @Test func theTemplateIsHardenedLikeTheSingleUnit() throws {
        let single = try SystemdUnitTests.settings(of: SystemdUnitTests.unitPath)
        let template = try SystemdUnitTests.settings(of: Self.templatePath)
        #expect(Set(single.keys).subtracting(["User"]) == Set(template.keys).subtracting(["User", "Conflicts"]))
        // The two styles exclude each other: the single unit's folders hold the instances'.
        #expect(template["Conflicts"] == ["twfeed.service"])
        for key in single.keys.sorted() where !Self.perAccount.contains(key) {
            #expect(template[key] == single[key], "\(key)")
        }
        #expect(template["ExecStart"] == ["/usr/bin/twfeed run --account %i"])
        #expect(template["User"] == ["twfeed-%i"])
        #expect(template["DynamicUser"] == ["yes"])
        for key in ["StateDirectory", "CacheDirectory", "LogsDirectory", "RuntimeDirectory"] {
            #expect(template[key] == ["twfeed/%i"], "\(key)")
        }
        #expect(template["ConfigurationDirectory"] == ["twfeed"])
    }

    /// The variables systemd would give `twfeed@NAME`, read from the template itself.
    static func instanceEnvironment(_ name: String) throws -> [String: String] {
        let settings = try SystemdUnitTests.settings(of: templatePath)
        func directory(_ key: String, under root: String) throws -> String {
            "\(root)/" + (try #require(settings[key]?.first)).replacingOccurrences(of: "%i", with: name)
        }
        return [
            "HOME": "/",
            "STATE_DIRECTORY": try directory("StateDirectory", under: "/var/lib"),
            "CACHE_DIRECTORY": try directory("CacheDirectory", under: "/var/cache"),
            "LOGS_DIRECTORY": try directory("LogsDirectory", under: "/var/log"),
            "RUNTIME_DIRECTORY": try directory("RuntimeDirectory", under: "/run"),
            "CONFIGURATION_DIRECTORY": try directory("ConfigurationDirectory", under: "/etc"),
            "CREDENTIALS_DIRECTORY": "/run/credentials/twfeed@\(name).service",
        ]
    }

    @Test func aShellFindsTheFilesTheInstanceWrites() throws {
        let alice = try HostAccount("alice")
        let unit = try Self.instanceEnvironment("alice")
        let shell = ["HOME": "/root"]
        let daemon = TwfeedConfig(environment: unit, account: alice)
        let command = TwfeedConfig(environment: shell, account: alice)
        #expect(alice.configPath(environment: unit) == alice.configPath(environment: shell))
        #expect(daemon.storage == command.storage)
        #expect(StatusSnapshot.path(config: daemon, environment: unit) == StatusSnapshot.path(config: command, environment: shell))
        #expect(WakeSocket.path(config: daemon, environment: unit) == WakeSocket.path(config: command, environment: shell))
        // What LoadCredential= copies in is what `twfeed --account alice login` writes.
        let settings = try SystemdUnitTests.settings(of: Self.templatePath)
        let source = try #require(settings["LoadCredential"]?.first?.split(separator: ":", maxSplits: 1).last)
        #expect(source.replacingOccurrences(of: "%i", with: "alice") == command.credentials)
        #expect(daemon.credentials == "/run/credentials/twfeed@alice.service/credentials.json")
        #expect(alice.unit == "twfeed@alice.service")
    }

    /// The package's `/etc/twfeed/config.json` names no path: under either unit (HOME is
    /// `/` with DynamicUser=) everything lands in the directories systemd hands it.
    @Test func theConffileLeavesEveryPathToTheUnits() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.conffilePath))
        let single = try ConfigLoader.parse(
            data,
            path: Self.conffilePath,
            environment: [
                "HOME": "/", "STATE_DIRECTORY": "/var/lib/twfeed", "CACHE_DIRECTORY": "/var/cache/twfeed",
                "CREDENTIALS_DIRECTORY": "/run/credentials/twfeed.service",
            ]
        )
        #expect(single.storage.database == "/var/lib/twfeed/twfeed.sqlite")
        #expect(single.storage.imageCache == "/var/cache/twfeed/images")
        #expect(single.credentials == "/run/credentials/twfeed.service/credentials.json")
        #expect(single.log.file == nil)
        let alice = try ConfigLoader.parse(data, path: Self.conffilePath, environment: try Self.instanceEnvironment("alice"), account: HostAccount("alice"))
        #expect(alice.storage.database == "/var/lib/twfeed/alice/twfeed.sqlite")
        #expect(alice.storage.imageCache == "/var/cache/twfeed/alice/images")
    }
}
