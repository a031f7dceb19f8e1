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
    /// beside it in `twfeed.service.d/`, where systemd-analyze reads drop-ins from.
    static func unitForVerify(readerDropIn: Bool = false) throws -> (folder: String, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-unit-\(UUID())").path
        try FileManager.default.createDirectory(atPath: "\(folder)/twfeed.service.d", withIntermediateDirectories: true)
        let text = try String(contentsOfFile: unitPath, encoding: .utf8)
            .replacingOccurrences(of: "ExecStart=/usr/local/bin/twfeed ", with: "ExecStart=\(Binary.twfeed) ")
        let path = "\(folder)/twfeed.service"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        if readerDropIn {
            try FileManager.default.copyItem(atPath: readerDropInPath, toPath: "\(folder)/twfeed.service.d/reader.conf")
        }
        return (folder, path)
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

    @Test(.enabled(if: SystemdUnitTests.analyze != nil, "systemd-analyze is not installed: the unit was not verified or scored"),
          arguments: [false, true])
    func systemdAnalyzeVerifiesTheUnit(readerDropIn: Bool) throws {
        let (folder, path) = try Self.unitForVerify(readerDropIn: readerDropIn)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try Self.run(["verify", path])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("twfeed.service:"), "\(result.output)")
        #expect(!result.output.contains("reader.conf:"), "\(result.output)")
    }

    /// The scale of --threshold is 0-100: 15 is an exposure of 1.5. Scored as shipped,
    /// and with the reader's drop-in.
    @Test(.enabled(if: SystemdUnitTests.analyze != nil, "systemd-analyze is not installed: the unit was not verified or scored"),
          arguments: [false, true])
    func theHardeningScoresAtMost1Point5(readerDropIn: Bool) throws {
        let (folder, path) = try Self.unitForVerify(readerDropIn: readerDropIn)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try Self.run(["security", "--offline=true", "--threshold=15", "--no-pager", readerDropIn ? path : Self.unitPath])
        let score = result.output.firstMatch(of: #/Overall exposure level for twfeed\.service: (\d+\.\d)/#).flatMap { Double($0.1) }
        #expect(result.status == 0, "\(result.output)")
        #expect(try #require(score, "\(result.output)") <= 1.5)
    }
}
