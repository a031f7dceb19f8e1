import Foundation
import Testing

/// `systemd/twfeed.service`, checked with systemd's own tools. There is no systemd as
/// PID 1 here, so the unit is verified and scored offline; the daemon's side of
/// Type=notify is tested in OperationsTests with a socket of the test's own.
struct SystemdUnitTests {
    static let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let unitPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("systemd/twfeed.service").path

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
    /// (verify checks that the binary exists).
    static func unitForVerify() throws -> (folder: String, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-unit-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: unitPath, encoding: .utf8)
            .replacingOccurrences(of: "ExecStart=/usr/local/bin/twfeed ", with: "ExecStart=\(Binary.twfeed) ")
        let path = "\(folder)/twfeed.service"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (folder, path)
    }

    @Test func theUnitSaysWhatTheIssueAsks() throws {
        let text = try String(contentsOfFile: Self.unitPath, encoding: .utf8)
        var settings: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && line.contains("=") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            settings[parts[0], default: []].append(parts.count > 1 ? parts[1] : "")
        }
        #expect(settings["Type"] == ["notify"])
        #expect(settings["ExecReload"] == ["/bin/kill -HUP $MAINPID"])
        #expect(settings["WatchdogSec"]?.isEmpty == false)
        #expect(settings["Restart"] == ["on-failure"])
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

    @Test(.enabled(if: SystemdUnitTests.analyze != nil, "systemd-analyze is not installed: the unit was not verified or scored"))
    func systemdAnalyzeVerifiesTheUnit() throws {
        let (folder, path) = try Self.unitForVerify()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try Self.run(["verify", path])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("twfeed.service:"), "\(result.output)")
    }

    /// The scale of --threshold is 0-100: 15 is an exposure of 1.5.
    @Test(.enabled(if: SystemdUnitTests.analyze != nil, "systemd-analyze is not installed: the unit was not verified or scored"))
    func theHardeningScoresAtMost1Point5() throws {
        let result = try Self.run(["security", "--offline=true", "--threshold=15", "--no-pager", Self.unitPath])
        let score = result.output.firstMatch(of: #/Overall exposure level for twfeed\.service: (\d+\.\d)/#).flatMap { Double($0.1) }
        #expect(result.status == 0, "\(result.output)")
        #expect(try #require(score, "\(result.output)") <= 1.5)
    }
}
