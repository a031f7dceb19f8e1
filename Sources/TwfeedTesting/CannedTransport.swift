import TwfeedKit

/// Answers every request with 200 and the same body, at once: what is timed or tested
/// is the parsing and mapping above the transport, not a server.
package struct CannedTransport: APITransport {
    package let body: [UInt8]

    package init(body: [UInt8]) {
        self.body = body
    }

    package func send(_ request: APIRequest) async throws -> APIResponse {
        APIResponse(status: 200, body: body)
    }
}
