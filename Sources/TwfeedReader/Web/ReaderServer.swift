import Glibc
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import TwfeedCore

/// The web reader: Hummingbird's `Application` serving `ReaderRoutes`, as one more
/// `Service` in the daemon's group (it stops gracefully with the rest), or alone under
/// `twfeed serve`.
package struct ReaderServer: Service {
    let source: ReaderSource
    let address: ListenAddress
    let logger: Logger
    /// Told the bound address once the socket listens (the port, when asked for 0).
    let onListening: @Sendable (ListenAddress) async -> Void

    package init(
        source: ReaderSource,
        address: ListenAddress,
        logger: Logger,
        onListening: @escaping @Sendable (ListenAddress) async -> Void = { _ in }
    ) {
        self.source = source
        self.address = address
        self.logger = logger
        self.onListening = onListening
    }

    package func run() async throws {
        let address = address
        let logger = logger
        let onListening = onListening
        // Hummingbird logs every request at debug and its own start at info; twfeed's
        // log keeps to its own events (`http.listening`, `http.stopped`).
        let listening = Mutex(address)
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .warning)
        let application = Application(
            router: ReaderRoutes.router(source, logger: logger),
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? address.port
                let bound = ListenAddress(host: address.host, port: port)
                listening.withLock { $0 = bound }
                logger.info("http.listening", metadata: ["address": "\(bound)", "url": "http://\(bound)/"])
                await onListening(bound)
            },
            logger: quiet
        )
        do {
            try await application.run()
        } catch {
            // NIO's bind error names the syscall's Swift signature; the errno says it plainly.
            let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
            logger.error("http.failed", metadata: ["address": "\(address)", "error": "\(reason)"])
            throw TwfeedError(.unavailable, "http.listen \(address): cannot listen: \(reason)")
        }
        logger.info("http.stopped", metadata: ["address": "\(listening.withLock { $0 })"])
    }
}
