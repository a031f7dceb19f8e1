import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import TwfeedCore
import TwfeedKit
import TwfeedReader
import TwfeedStatus
import TwfeedStore

/// `twfeed serve`: the web reader alone, without polling: the same pages the daemon
/// serves with `http.listen`, for a database another process fills (or none). It reads
/// the store read-only; only its compose and outbox pages write, as `twfeed post` does.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web reader (timelines, search, compose, outbox, Atom feeds, metrics) from the database.",
        discussion: """
            Listens on http.listen from the config, or on --listen. Loopback only unless http.allowRemote \
            is true: the pages show your private timeline. SIGTERM and SIGINT stop it.
            """
    )

    @OptionGroup var options: GlobalOptions

    @OptionGroup var listenOption: ListenOption

    func run() async throws {
        try await CommandLineEdge.run {
            var config = try options.loadConfig()
            let configName = config.sourcePath ?? "the config"
            config.http.listen = listenOption.address(or: config)
            guard let address = config.http.listen else {
                throw TwfeedError(.configuration, "\(configName): http.listen: not set; set it (e.g. \"127.0.0.1:8765\") or pass --listen")
            }
            if !address.isLoopback && !config.http.allowRemote {
                throw TwfeedError(
                    .configuration,
                    "\(configName): --listen \(address) is not a loopback address: set http.allowRemote to true to serve your timeline to the network"
                )
            }
            let logs = try LogSetup(config: config.log)
            let database = try StoreReader.open(path: config.storage.database)
            let wakePath = WakeSocket.path(config: config)
            let source = ReaderSource(
                database: database,
                config: config,
                statusPath: StatusSnapshot.readerPath(config: config),
                metrics: TwfeedMetrics(),
                access: try ReaderAccess(config: config),
                // The compose page queues as `twfeed post` does and wakes the daemon, if one runs.
                outbox: DurableOutbox(path: config.storage.database, wake: { [wakePath] in _ = WakeSocket.send(to: wakePath) }),
                fetches: FetchRequester(
                    path: config.storage.database,
                    clock: SystemClock(),
                    logger: logs.logger,
                    wake: { [wakePath] in _ = WakeSocket.send(to: wakePath) }
                )
            )
            let server = ReaderServer(source: source, address: address, logger: logs.logger)
            let group = ServiceGroup(
                configuration: .init(
                    services: [.init(service: server)],
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: Logger(label: "twfeed.lifecycle", factory: { _ in SwiftLogNoOpLogHandler() })
                )
            )
            try await group.run()
        }
    }
}
