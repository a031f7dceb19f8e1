import Foundation
import TwfeedCore
import TwfeedStore

extension DaemonSupervisor {
    /// `twfeed run`'s daemon, from its config file to its end. `twfeed run` and `twfeed
    /// demo` both start here, so the demo's daemon is the real one: the same database
    /// lock, wake socket, status snapshot, reloads and signals, and every command
    /// (`post`, `fetch`, `show`, a second `run`) meets it as it meets a real one.
    package struct Launch: Sendable {
        package let supervisor: DaemonSupervisor
        /// What the first generation runs from; `inputs.database` is the daemon's own.
        package let inputs: Inputs
        package var config: TwfeedConfig { inputs.config }

        /// Loads the config at `configPath` (nil: the default places); see
        /// `init(dependencies:loadConfig:)`.
        package init(configPath: String?, dependencies: Daemon.Dependencies) throws {
            try self.init(dependencies: dependencies) { try ConfigLoader.load(explicit: configPath) }
        }

        /// Loads the config with `loadConfig` (again on each reload: `--config`, or
        /// `--account`'s file), sets up its logs, loads the credentials, takes the
        /// database's one-daemon lock (exit 75 when a daemon holds it) and only then opens
        /// the database, so a second daemon does not even migrate it.
        package init(dependencies: Daemon.Dependencies, loadConfig: @escaping @Sendable () throws -> TwfeedConfig) throws {
            let config = try loadConfig()
            let logs = try LogSetup(config: config.log)
            let credentials = try Credentials.load(from: config.credentials)
            logs.redactor.register(credentials.secrets)
            let lock = try DatabaseLock.acquire(database: config.storage.database)
            let database = try AppDatabase.open(path: config.storage.database, logger: logs.logger)
            supervisor = DaemonSupervisor(initialConfig: config, database: database, dependencies: dependencies, loadConfig: loadConfig)
            inputs = Inputs(config: config, credentials: credentials, database: database, logs: logs, lock: lock)
        }

        /// Runs the daemon until `controls` says stop (or a service fails).
        package func run(controls: AsyncStream<Control>) async throws {
            try await supervisor.run(initial: inputs, controls: controls)
        }
    }
}
