/// Sends one request and returns the whole answer. The daemon uses libcurl
/// (`CurlTransport`); tests and the benchmark put a scripted transport in its place
/// (TwfeedTesting).
package protocol APITransport: Sendable {
    func send(_ request: APIRequest) async throws -> APIResponse
}
