import Foundation
import Testing
import TwfeedCore

/// `systemd/twfeed.service`, checked with systemd's own tools. There is no systemd as
/// PID 1 here, so the unit is verified and scored offline; the daemon's side of
/// Type=notify is tested in OperationsTests with a socket of the test's own.
@Suite(.tags(.integration))
struct SystemdUnitTests {
    static let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let unitPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("systemd/twfeed.service").path
    /// The drop-in an operator adds with the reader (`http.listen`).
    static let readerDropInPath = URL(fileURLWithPath: unitPath).deletingLastPathComponent()
        .appendingPathComponent("twfeed-reader.conf").path

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: analyze!)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["SYSTEMD_PAGER": "", "SYSTEMD_COLORS": "0"]) { $1 }
        let pipes = try ChildPipes.run(process, error: .sameAsOutput)
        let data = pipes.output.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The unit with ExecStart pointing at the built binary, in a folder of its own
    /// (verify checks that the binary exists); with `readerDropIn`, the reader's drop-in
    /// beside it in `twfeed.service.d/`, where systemd-analyze reads drop-ins from. For
    /// the template, `path` is the instance `twfeed@alice.service`, which systemd-analyze
    /// makes from the template beside it.
    static func unitForVerify(_ unit: String = "twfeed.service", readerDropIn: Bool = false) throws -> (folder: String, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-unit-\(UUID())").path
        try FileManager.default.createDirectory(atPath: "\(folder)/twfeed.service.d", withIntermediateDirectories: true)
        let source = URL(fileURLWithPath: unitPath).deletingLastPathComponent().appendingPathComponent(unit).path
        let text = try String(contentsOfFile: source, encoding: .utf8)
            .replacingOccurrences(of: "ExecStart=/usr/bin/twfeed ", with: "ExecStart=\(Binary.twfeed) ")
        try text.write(toFile: "\(folder)/\(unit)", atomically: true, encoding: .utf8)
        if readerDropIn {
            try FileManager.default.copyItem(atPath: readerDropInPath, toPath: "\(folder)/twfeed.service.d/reader.conf")
        }
        return (folder, "\(folder)/\(unit.replacingOccurrences(of: "@.", with: "@alice."))")
    }

    /// Each `Key=value` of a unit file, in order; comments and section headers left out.
    static func settings(of path: String) throws -> [String: [String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var settings: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && line.contains("=") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            settings[parts[0], default: []].append(parts.count > 1 ? parts[1] : "")
        }
        return settings
    }

    @Test func theUnitSaysWhatTheIssueAsks() throws {
        let settings = try Self.settings(of: Self.unitPath)
        #expect(settings["Type"] == ["notify"])
        #expect(settings["ExecReload"] == ["/bin/kill -HUP $MAINPID"])
        #expect(settings["WatchdogSec"]?.isEmpty == false)
        #expect(settings["Restart"] == ["on-failure"])
        // 243: LoadCredential= found no credentials file; restarting every 10 s will not make one.
        #expect(settings["RestartPreventExitStatus"] == ["64 77 78 243"])
        #expect(settings["DynamicUser"] == ["yes"])
        for key in ["StateDirectory", "CacheDirectory", "LogsDirectory", "ConfigurationDirectory", "RuntimeDirectory"] {
            #expect(settings[key] == ["twfeed"], "\(key)")
        }
        #expect(settings["LoadCredential"] == ["credentials.json:/etc/twfeed/credentials.json"])
        // An allow list would take precedence over what the unit denies.
        #expect(settings["IPAddressAllow"] == nil)
    }

    /// The SSRF wall for image URLs is the daemon's (`AddressWall`); the units deny only
    /// what twfeed never reaches, link-local (cloud metadata) first, and none of the
    /// ranges where DNS resolvers live, so the service resolves names after
    /// `apt install` on a LAN, in a VPC or behind systemd-resolved's stub.
    @Test(arguments: ["twfeed.service", "twfeed@.service"])
    func theUnitsDenyLinkLocalButNotWhereResolversLive(unit: String) throws {
        let path = URL(fileURLWithPath: Self.unitPath).deletingLastPathComponent().appendingPathComponent(unit).path
        let settings = try Self.settings(of: path)
        let denied = (settings["IPAddressDeny"] ?? []).joined(separator: " ").split(separator: " ").map(String.init)
        #expect(Set(denied) == ["0.0.0.0/8", "169.254.0.0/16", "224.0.0.0/4", "240.0.0.0/4", "::/128", "::ffff:0:0/96", "fe80::/10", "ff00::/8"])
        for range in ["127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"] {
            #expect(!denied.contains(range), "\(unit) denies \(range), where resolvers live")
        }
        // The daemon walls every range the unit still denies, and more.
        let walled = Set(AddressWall.ranges.map(\.description))
        #expect(Set(denied).isSubset(of: walled), "\(Set(denied).subtracting(walled))")
        #expect(settings["IPAddressAllow"] == nil)
    }

    /// The reader's drop-in lets the daemon bind the one port of `http.listen`'s example
    /// and nothing else. It opens no address: loopback is no longer denied, so the
    /// reader's clients need no `IPAddressAllow=` (which would also open the addresses
    /// to the daemon's own connections).
    @Test func theReaderDropInAllowsOnePortOnly() throws {
        let settings = try Self.settings(of: Self.readerDropInPath)
        #expect(Set(settings.keys) == ["SocketBindAllow", "SocketBindDeny"])
        #expect(settings["SocketBindAllow"] == ["tcp:8765"])
        #expect(settings["SocketBindDeny"] == ["any"])
    }

    /// `--man=no`: the unit's `Documentation=man:twfeed(1)` is checked by the package's
    /// test, where the page is installed.
    @Test(.enabled(if: SystemdUnitTests.analyze != nil, "systemd-analyze is not installed: the unit was not verified or scored"),
          arguments: [("twfeed.service", false), ("twfeed.service", true), ("twfeed@.service", false)])
    func systemdAnalyzeVerifiesTheUnit(unit: String, readerDropIn: Bool) throws {
        let (folder, path) = try Self.unitForVerify(unit, readerDropIn: readerDropIn)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try Self.run(["verify", "--man=no", path])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains(".service:"), "\(result.output)")
        #expect(!result.output.contains("reader.conf:"), "\(result.output)")
    }

    /// The scale of --threshold is 0-100: 15 is an exposure of 1.5. Scored as shipped,
    /// with the reader's drop-in, and an account's instance.
    @Test(.enabled(if: SystemdUnitTests.analyze != nil, "systemd-analyze is not installed: the unit was not verified or scored"),
          arguments: [("twfeed.service", false), ("twfeed.service", true), ("twfeed@.service", false)])
    func theHardeningScoresAtMost1Point5(unit: String, readerDropIn: Bool) throws {
        let (folder, path) = try Self.unitForVerify(unit, readerDropIn: readerDropIn)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try Self.run(["security", "--offline=true", "--threshold=15", "--no-pager", path])
        let name = URL(fileURLWithPath: path).lastPathComponent
        let score = result.output.firstMatch(of: #/Overall exposure level for (\S+): (\d+\.\d)/#)
        #expect(result.status == 0, "\(result.output)")
        #expect(score.map { String($0.1) } == name, "\(result.output)")
        #expect(try #require(score.flatMap { Double($0.2) }, "\(result.output)") <= 1.5)
    }

    static func score(readerDropIn: Bool) throws -> String? {
        let (folder, path) = try unitForVerify(readerDropIn: readerDropIn)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try run(["security", "--offline=true", "--no-pager", path])
        return result.output.firstMatch(of: #/Overall exposure level for \S+: (\d+\.\d)/#).map { String($0.1) }
    }

    /// The reader's drop-in narrows the unit and loosens nothing: the score is the unit's.
    @Test(.enabled(if: SystemdUnitTests.analyze != nil, "systemd-analyze is not installed: the unit was not scored"))
    func theReaderDropInKeepsTheUnitsScore() throws {
        let alone = try #require(try Self.score(readerDropIn: false))
        #expect(try Self.score(readerDropIn: true) == alone)
    }
}
