import Foundation
import Logging
import ServiceLifecycle
import TwfeedCore
import TwfeedStatus
import TwfeedStore
import UnixSignals

/// `twfeed run`: the daemon for the life of the process, across reloads.
///
/// It runs one generation at a time: a `Daemon` service built (by `Daemon.build`, or
/// `Daemon.signedOut`) from the current config and credentials. On SIGHUP it loads
/// the config and credentials again; if they are invalid it logs
/// `daemon.reload_failed` and keeps the running generation, else it tells systemd `RELOADING=1`, stops the generation gracefully,
/// starts the next one and says `READY=1`. The database, the status board and (unless
/// `log` changed) the log setup carry over. SIGUSR1 reopens the log file; SIGTERM and
/// SIGINT stop gracefully (`STOPPING=1`). The supervisor traps all four itself, so no
/// signal is lost or fatal between two generations.
///
/// Without an access token (never signed in, or after `twfeed logout`) the daemon
/// stays up, signed out: it neither polls nor posts, keeps its status snapshot (which
/// says so) and waits for new credentials, so it never crash-loops under
/// `Restart=on-failure`. A changed credentials file is noticed within a heartbeat even
/// without a SIGHUP.
package final class DaemonSupervisor: Sendable {
    /// What a generation is built from.
    package struct Inputs: Sendable {
        package var config: TwfeedConfig
        package var credentials: Credentials
        package var database: AppDatabase
        package var logs: LogSetup
        /// The database's one-daemon lock (`twfeed run`), held while these inputs are
        /// current; a reload to another database takes that one's lock first.
        package var lock: DatabaseLock?

        package init(
            config: TwfeedConfig,
            credentials: Credentials,
            database: AppDatabase,
            logs: LogSetup,
            lock: DatabaseLock? = nil
        ) {
            self.config = config
            self.credentials = credentials
            self.database = database
            self.logs = logs
            self.lock = lock
        }
    }

    /// What the outside asks of the daemon (from signals, or from a test).
    package enum Control: Sendable, Equatable {
        case reload, reopenLogs, stop
    }

    let loadConfig: @Sendable () throws -> TwfeedConfig
    let dependencies: Daemon.Dependencies
    let environment: [String: String]
    let credentialCheckInterval: Double
    package let board: StatusBoard

    package init(
        initialConfig: TwfeedConfig,
        database: AppDatabase?,
        dependencies: Daemon.Dependencies,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        credentialCheckInterval: Double = Heartbeat.interval,
        loadConfig: @escaping @Sendable () throws -> TwfeedConfig
    ) {
        self.loadConfig = loadConfig
        self.dependencies = dependencies
        self.environment = environment
        self.credentialCheckInterval = credentialCheckInterval
        board = StatusBoard(config: initialConfig, database: database, startedAt: dependencies.clock.now())
    }

    /// SIGHUP, SIGUSR1, SIGTERM and SIGINT as controls. Call it first thing, so that a
    /// signal during start-up is queued rather than fatal.
    package static func processControls() async -> AsyncStream<Control> {
        let signals = await UnixSignalsSequence(trapping: [.sighup, .sigusr1, .sigterm, .sigint])
        let (stream, continuation) = AsyncStream<Control>.makeStream()
        let forwarder = Task {
            for await signal in signals {
                switch signal {
                case .sighup: continuation.yield(.reload)
                case .sigusr1: continuation.yield(.reopenLogs)
                default: continuation.yield(.stop)
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in forwarder.cancel() }
        return stream
    }

    private enum Event: Sendable {
        case control(Control)
        case credentialsTick
        case ended((any Error)?)
    }

    private enum Pending {
        case reload(Inputs, reason: String, changed: String)
        case stop
    }

    /// A running generation.
    private struct Generation {
        var daemon: Daemon
        var statusPath: String
    }

    /// Runs until told to stop (or a service fails), across any number of reloads.
    package func run(initial: Inputs, controls: AsyncStream<Control>) async throws {
        var current = initial
        current.logs.redactor.register(current.credentials.secrets)
        let notifier = dependencies.notifier
        let (events, sink) = AsyncStream<Event>.makeStream()
        Daemon.logStart(config: current.config, logger: current.logs.logger)
        var failure: (any Error)?
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                for await control in controls { sink.yield(.control(control)) }
            }
            let clock = dependencies.clock
            let interval = credentialCheckInterval
            tasks.addTask {
                while !Task.isCancelled {
                    do { try await clock.sleep(for: interval) } catch { return }
                    sink.yield(.credentialsTick)
                }
            }
            var generation = try start(current, sink: sink, tasks: &tasks)
            notifier?.ready()
            var fingerprint = FileFingerprint(path: current.config.credentials)
            var pending: Pending?
            var reloadAgain = false
            var lastFailedFingerprint: FileFingerprint?

            func requestReload(reason: String) async {
                guard pending == nil else {
                    if case .reload = pending { reloadAgain = true }
                    return
                }
                let logger = current.logs.logger
                switch loadNext(current) {
                case .failure(let error):
                    logger.error(
                        "daemon.reload_failed",
                        metadata: [
                            "reason": "\(reason)", "error": "\(error.message)", "kept": "previous configuration",
                        ]
                    )
                case .success(let next):
                    notifier?.reloading()
                    pending = .reload(next, reason: reason, changed: Self.changes(from: current, to: next))
                    await generation.daemon.triggerGracefulShutdown()
                }
            }

            loop: for await event in events {
                switch event {
                case .control(.reopenLogs):
                    if let file = current.logs.file {
                        file.reopen()
                        current.logs.logger.info("log.reopened", metadata: ["path": "\(file.path)"])
                    }
                case .control(.reload):
                    await requestReload(reason: "signal")
                case .credentialsTick:
                    let now = FileFingerprint(path: current.config.credentials)
                    if now != fingerprint && now != lastFailedFingerprint {
                        await requestReload(reason: "credentials-changed")
                        if pending == nil { lastFailedFingerprint = now }
                    }
                case .control(.stop):
                    if case .stop = pending { continue }
                    let wasReloading = pending != nil
                    pending = .stop
                    notifier?.stopping()
                    if !wasReloading { await generation.daemon.triggerGracefulShutdown() }
                case .ended(let error):
                    switch pending {
                    case .reload(let next, let reason, let changed)?:
                        if let error { current.logs.logger.error("daemon.service_failed", metadata: ["error": "\(error)"]) }
                        current = next
                        fingerprint = FileFingerprint(path: current.config.credentials)
                        lastFailedFingerprint = nil
                        pending = nil
                        // A reload is how a person says "I fixed it in the console": a
                        // refused feed (or the outbox) asks again at once, not in a day.
                        try? await current.database.recheckEndpointRefusals(at: dependencies.clock.now())
                        let previousStatusPath = generation.statusPath
                        do {
                            generation = try start(current, sink: sink, tasks: &tasks)
                            // A moved database moves the snapshot: the old one must not
                            // tell readers a daemon runs there.
                            if generation.statusPath != previousStatusPath { unlink(previousStatusPath) }
                        } catch {
                            failure = error
                            break loop
                        }
                        current.logs.logger.info(
                            "daemon.reload",
                            metadata: [
                                "pid": "\(getpid())", "reason": "\(reason)", "changed": "\(changed)",
                                "signed_in": "\(current.credentials.hasAccessToken)",
                            ]
                        )
                        notifier?.ready()
                        if reloadAgain {
                            reloadAgain = false
                            await requestReload(reason: "signal")
                        }
                    case .stop?:
                        if let error { failure = error }
                        break loop
                    case nil:
                        // A service ended by itself: with an error, systemd restarts us.
                        failure = error
                        notifier?.stopping()
                        break loop
                    }
                }
            }
            unlink(generation.statusPath)
            tasks.cancelAll()
        }
        if let failure {
            current.logs.logger.critical("daemon.failed", metadata: ["pid": "\(getpid())", "error": "\(failure)"])
            throw failure
        }
        Daemon.logStop(logger: current.logs.logger)
    }

    /// Builds a generation's daemon and starts it.
    private func start(
        _ inputs: Inputs,
        sink: AsyncStream<Event>.Continuation,
        tasks: inout ThrowingTaskGroup<Void, any Error>
    ) throws -> Generation {
        let config = inputs.config
        let logger = inputs.logs.logger
        let statusPath = StatusSnapshot.path(config: config, environment: environment)
        let daemon =
            inputs.credentials.hasAccessToken
            ? try Daemon.build(
                config: config,
                credentials: inputs.credentials,
                database: inputs.database,
                dependencies: dependencies,
                statusPath: statusPath,
                wakePath: WakeSocket.path(config: config, environment: environment),
                board: board,
                gracefulShutdownSignals: [],
                logger: logger
            )
            : try Daemon.signedOut(
                config: config,
                database: inputs.database,
                dependencies: dependencies,
                statusPath: statusPath,
                board: board,
                gracefulShutdownSignals: [],
                logger: logger
            )
        var wakeSocket: WakeSocket?
        do {
            wakeSocket = try daemon.openWakeSocket()
        } catch let error as TwfeedError {
            // The socket is only an optimisation: without it the outbox flushes on its timer.
            logger.warning("wake.failed", metadata: ["path": "\(daemon.wakePath ?? "")", "error": "\(error.message)"])
        }
        tasks.addTask { [wakeSocket] in
            do {
                try await daemon.runServices(wakeSocket: wakeSocket)
                sink.yield(.ended(nil))
            } catch {
                sink.yield(.ended(error))
            }
        }
        return Generation(daemon: daemon, statusPath: statusPath)
    }

    /// The next config and credentials, or why they cannot be used (one line).
    private func loadNext(_ current: Inputs) -> Result<Inputs, TwfeedError> {
        do {
            let config = try loadConfig()
            let credentials = try Credentials.load(from: config.credentials)
            let logs = config.log == current.config.log ? current.logs : try LogSetup(config: config.log)
            logs.redactor.register(current.credentials.secrets + credentials.secrets)
            let moved = config.storage.database != current.config.storage.database
            let lock = moved && current.lock != nil ? try DatabaseLock.acquire(database: config.storage.database) : current.lock
            let database = moved ? try AppDatabase.open(path: config.storage.database) : current.database
            return .success(Inputs(config: config, credentials: credentials, database: database, logs: logs, lock: lock))
        } catch let error as TwfeedError {
            return .failure(error)
        } catch {
            return .failure(TwfeedError(.configuration, "\(error)"))
        }
    }

    /// The config sections that differ (`credentials` also when only the file's content
    /// does), comma-separated, or "none".
    static func changes(from old: Inputs, to new: Inputs) -> String {
        let changed = ConfigSection.allCases.filter { section in
            section.differs(old.config, new.config) || (section == .credentials && old.credentials != new.credentials)
        }
        return changed.isEmpty ? "none" : changed.map(\.rawValue).joined(separator: ",")
    }
}
