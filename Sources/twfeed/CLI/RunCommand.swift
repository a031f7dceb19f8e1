import ArgumentParser
import Foundation
import TwfeedKit

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the daemon (under systemd, or in a terminal).")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandLineEdge.run {
            let config = try options.loadConfig()
            let logs = try LogSetup(config: config.log)
            let credentials = try Credentials.load(from: config.credentials)
            logs.redactor.register(credentials.secrets)
            let database = try AppDatabase.open(path: config.storage.database)
            let daemon = try Daemon.build(
                config: config, credentials: credentials, database: database,
                statusPath: StatusSnapshot.path(config: config), wakePath: WakeSocket.path(config: config),
                logger: logs.logger)
            try await daemon.run()
        }
    }
}
