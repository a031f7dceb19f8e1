import ArgumentParser
import Foundation
import TwfeedCore
import TwfeedKit
import TwfeedStore

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon (under systemd, or in a terminal).",
        discussion: """
            SIGHUP re-reads the config and the credentials (an invalid new config is refused and the \
            running one kept); SIGUSR1 reopens the log file; SIGTERM and SIGINT stop gracefully. Under \
            systemd (Type=notify) it reports READY, STATUS, RELOADING, STOPPING and feeds the watchdog.
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        // Trap the signals before anything else: a SIGHUP during start-up is then
        // handled once the daemon is up instead of killing it.
        let controls = await DaemonSupervisor.processControls()
        try await CommandLineEdge.run {
            let options = options
            let config = try options.loadConfig()
            let logs = try LogSetup(config: config.log)
            let credentials = try Credentials.load(from: config.credentials)
            logs.redactor.register(credentials.secrets)
            // One daemon per database, for the daemon's whole life; taken before the
            // database is opened, so a second daemon does not even migrate it.
            let lock = try DatabaseLock.acquire(database: config.storage.database)
            let database = try AppDatabase.open(path: config.storage.database, logger: logs.logger)
            let dependencies = Daemon.Dependencies(notifier: SystemdNotifier())
            let supervisor = DaemonSupervisor(initialConfig: config, database: database, dependencies: dependencies) {
                try options.loadConfig()
            }
            try await supervisor.run(
                initial: .init(config: config, credentials: credentials, database: database, logs: logs, lock: lock),
                controls: controls
            )
        }
    }
}
