import TwfeedCore
import TwfeedStatus

extension ReaderServer {
    /// The reader the daemon runs beside its loops (`Daemon.Dependencies.reader`): it
    /// reads the daemon's own store and writes through the daemon's doors.
    /// - Parameter onListening: told the bound address once it listens (`demo --serve`, tests).
    package static func inDaemon(
        onListening: @escaping @Sendable (ListenAddress) async -> Void = { _ in }
    ) -> DaemonReader.Make {
        { daemon in
            let source = ReaderSource(
                database: daemon.database,
                config: daemon.config,
                statusPath: daemon.statusPath,
                metrics: daemon.metrics,
                access: try ReaderAccess(config: daemon.config),
                outbox: daemon.outbox,
                fetches: daemon.fetches,
                loopsProgress: daemon.loopsProgress,
                board: daemon.board,
                clock: daemon.clock
            )
            return ReaderServer(source: source, address: daemon.address, logger: daemon.logger, onListening: onListening)
        }
    }
}
