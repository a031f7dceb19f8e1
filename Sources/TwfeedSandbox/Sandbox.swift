import Foundation
import TwfeedCore
import TwfeedEmulator
import TwfeedKit

/// A running emulator and, in one folder, the files that point twfeed at it: a 0600
/// credentials file with the emulator's keys and a config file naming the emulator's
/// address, the database and the image cache in the same folder.
///
/// `twfeed demo`, twfeed-bench and the integration tests all run in one of these, so the
/// world they test is the world a user's demo has. It does not build or run the daemon:
/// each caller does that its own way.
package final class Sandbox: Sendable {
    package let folder: String
    package let emulator: Emulator
    /// The configuration the emulator was started with (its keys, its seed).
    package let emulatorConfiguration: EmulatorConfiguration
    /// The API dialect the config asks for: "v2" or "v1.1".
    package let dialect: String
    /// Keys added to the config's `api` object (e.g. `timeoutSeconds`).
    private let apiKeys: [String: JSONValue]
    private let configMode: mode_t

    package var configPath: String { "\(folder)/config.json" }
    package var credentialsPath: String { "\(folder)/credentials.json" }
    package var databasePath: String { "\(folder)/twfeed.sqlite" }
    package var imageCachePath: String { "\(folder)/images" }

    /// Starts an emulator and writes the credentials and config files into `folder`
    /// (created if missing).
    ///
    /// - Parameters:
    ///   - tweetsPerFeed: the tweets the emulator holds per feed at start.
    ///   - configure: further emulator settings, applied after `tweetsPerFeed`.
    ///   - apiKeys: extra keys of the config's `api` object.
    ///   - config: extra top-level config keys; each replaces the whole key.
    package init(
        folder: String,
        dialect: String = "v2",
        tweetsPerFeed: Int,
        configure: (inout EmulatorConfiguration) -> Void = { _ in },
        apiKeys: [String: JSONValue] = [:],
        config: [String: JSONValue] = [:],
        configMode: mode_t = 0o644
    ) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var configuration = EmulatorConfiguration()
        configuration.tweetsPerFeed = tweetsPerFeed
        configure(&configuration)
        let emulator = Emulator(configuration: configuration)
        do {
            try emulator.start()
        } catch {
            throw TwfeedError(.unavailable, "cannot start the emulator: \(error)")
        }
        self.folder = folder
        self.emulator = emulator
        self.emulatorConfiguration = configuration
        self.dialect = dialect
        self.apiKeys = apiKeys
        self.configMode = configMode
        do {
            try Credentials(configuration.credentials).write(to: credentialsPath)
            try writeConfig(config)
        } catch {
            emulator.stop()
            throw error
        }
    }

    /// (Re)writes the config file: the emulator's address (or `baseURL`), the files in
    /// the folder, the `api` keys given at start, then `extra` top-level keys.
    package func writeConfig(_ extra: [String: JSONValue] = [:], baseURL: String? = nil) throws {
        var api: [String: JSONValue] = ["dialect": .string(dialect), "baseURL": .string(baseURL ?? emulator.baseURL)]
        for (key, value) in apiKeys { api[key] = value }
        var object: [String: JSONValue] = [
            "api": .object(api),
            "credentials": .string(credentialsPath),
            "storage": .object(["database": .string(databasePath), "imageCache": .string(imageCachePath)]),
        ]
        for (key, value) in extra where key != "api" { object[key] = value }
        // Keys given for "api" join the emulator's address and dialect, not replace them.
        if case .object(let more)? = extra["api"] {
            for (key, value) in more { api[key] = value }
            object["api"] = .object(api)
        }
        try AtomicFile.write(Data(JSONValue.object(object).serialized.utf8), to: configPath, mode: configMode)
    }

    /// The config as twfeed loads it from the file.
    package var config: TwfeedConfig { get throws { try ConfigLoader.load(explicit: configPath) } }

    /// The credentials as twfeed loads them from the file the config names.
    package var credentials: Credentials { get throws { try Credentials.load(from: config.credentials) } }

    /// Stops the emulator (the folder stays).
    package func stop() { emulator.stop() }

    /// A new, empty, private folder under the temporary directory (`mkdtemp`).
    package static func temporaryFolder(prefix: String) throws -> String {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("\(prefix).XXXXXX").utf8CString)
        guard let result = mkdtemp(&template) else {
            throw TwfeedError(.io, "cannot create a temporary folder: \(String(cString: strerror(errno)))")
        }
        return String(cString: result)
    }
}

extension Credentials {
    /// The emulator's key pairs, as twfeed's credentials file holds them.
    package init(_ emulator: EmulatorCredentials) {
        self.init(
            consumerKey: emulator.consumerKey,
            consumerSecret: emulator.consumerSecret,
            accessToken: emulator.accessToken,
            accessTokenSecret: emulator.accessTokenSecret
        )
    }
}
