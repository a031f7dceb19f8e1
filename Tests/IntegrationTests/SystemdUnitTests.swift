import Foundation
import Testing

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
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
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
        let denied = (settings["IPAddressDeny"] ?? []).joined(separator: " ").split(separator: " ").map(String.init)
        for range in ["127.0.0.0/8", "::1/128", "169.254.0.0/16", "fe80::/10", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"] {
            #expect(denied.contains(range), "IPAddressDeny lacks \(range)")
        }
        // An allow list would take precedence over the SSRF wall.
        #expect(settings["IPAddressAllow"] == nil)
    }

    /// The reader's drop-in opens the SSRF wall for the reader's two loopback addresses
    /// and nothing else, and lets the daemon bind the one port of `http.listen`'s example.
    @Test func theReaderDropInOpensLoopbackAndOnePortOnly() throws {
        let settings = try Self.settings(of: Self.readerDropInPath)
        #expect(Set(settings.keys) == ["IPAddressAllow", "SocketBindAllow", "SocketBindDeny"])
        let allowed = (settings["IPAddressAllow"] ?? []).joined(separator: " ").split(separator: " ").map(String.init)
        #expect(Set(allowed) == ["127.0.0.1", "::1"])
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
}
