import ArgumentParser
import Foundation
import TwfeedCore
import TwfeedKit
import TwfeedReader
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
            let dependencies = Daemon.Dependencies(notifier: SystemdNotifier(), reader: ReaderServer.inDaemon())
            let launch = try DaemonSupervisor.Launch(dependencies: dependencies) {
                try options.loadConfig()
            }
            try await launch.run(controls: controls)
        }
    }
}
