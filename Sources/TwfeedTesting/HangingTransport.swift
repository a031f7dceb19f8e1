import TwfeedKit

/// A transport whose requests get no answer until released: a hung poller, for the
/// watchdog and for a daemon that must stop while its requests hang.
package final class HangingTransport: APITransport {
    let gate = ManualClock()

    package init() {}

    package func send(_ request: APIRequest) async throws -> APIResponse {
        try? await gate.sleep(until: .distantFuture)
        throw TransportError(.connectionFailed, "released")
    }

    /// Ends every hanging request with a connection failure.
    package func release() { gate.advance(to: .distantFuture) }
}
