import Foundation

/// What the daemon says about itself, written to a small world-readable file so that
/// `twfeed status` works for any user while the database stays private. Counts only:
/// no tweet text, no secret.
public struct StatusSnapshot: Codable, Sendable, Equatable {
    public var pid: Int32
    public var startedAt: Date
    public var heartbeatAt: Date
    public var dialect: String
    public var lastCycle: String?

    public init(pid: Int32, startedAt: Date, heartbeatAt: Date, dialect: String, lastCycle: String? = nil) {
        self.pid = pid
        self.startedAt = startedAt
        self.heartbeatAt = heartbeatAt
        self.dialect = dialect
        self.lastCycle = lastCycle
    }

    /// `$RUNTIME_DIRECTORY/status.json` under systemd, else beside the database.
    public static func path(config: TwfeedConfig, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first {
            return "\(runtime)/status.json"
        }
        return config.storage.database + ".status.json"
    }

    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        try AtomicFile.write(try encoder.encode(self), to: path, mode: 0o644)
    }

    public static func read(from path: String) -> StatusSnapshot? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(StatusSnapshot.self, from: data)
    }

    /// Whether the process that wrote the snapshot still exists.
    public var processAlive: Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
