import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import TwfeedReader
import TwfeedTesting

/// Asks the web reader's router in process, as HummingbirdTesting's `.router` framework
/// does: the request goes to the responder with a context made from a testing channel,
/// with no socket and no port to wait for. The answer reads as `RawHTTP`'s, so a test
/// reads it the same over a socket or not.
/// Not HummingbirdTesting itself: its product links AsyncHTTPClient and NIOSSL (BoringSSL), measured at about 250 CPU-seconds more per clean debug build.
package struct ReaderClient: Sendable {
    private let responder: RouterResponder<ReaderContext>
    private let logger: Logger
    /// The port the requests name in `Host` (`127.0.0.1:port`): nothing listens on it.
    package let port: Int
    /// Where requests come from: loopback, as a browser on the same machine.
    private let peer: SocketAddress

    package init(source: ReaderSource, logger: Logger, port: Int = 8421) throws {
        responder = ReaderRoutes.router(source, logger: logger).buildResponder()
        self.logger = logger
        self.port = port
        peer = try SocketAddress(ipAddress: "127.0.0.1", port: 50_000)
    }

    /// The reader's own origin, as a browser on the page sends it in `Origin`.
    package var origin: String { "http://127.0.0.1:\(port)" }

    /// `GET path` (or another method). `Host` defaults to `127.0.0.1:port`; the task's
    /// `RawHTTP.bearer` is sent as `Authorization` unless the request names its own.
    package func request(
        _ path: String,
        method: String = "GET",
        host: String? = nil,
        headers: [String: String] = [:],
        body: String = ""
    ) async throws -> RawHTTP.Response {
        try await request(path, method: method, host: host, headers: headers, bytes: Array(body.utf8))
    }

    /// A request whose body is bytes (a form with files).
    package func request(
        _ path: String,
        method: String = "GET",
        host: String? = nil,
        headers: [String: String] = [:],
        bytes body: [UInt8]
    ) async throws -> RawHTTP.Response {
        var fields = HTTPFields()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard let name = HTTPField.Name(name) else { throw RawHTTP.Failure(description: "bad header name \(name)") }
            fields.append(HTTPField(name: name, value: value))
        }
        if let bearer = RawHTTP.bearer, fields[.authorization] == nil { fields[.authorization] = "Bearer \(bearer)" }
        if !body.isEmpty || method == "POST" { fields[.contentLength] = "\(body.count)" }
        let head = HTTPRequest(
            method: HTTPRequest.Method(method) ?? .get,
            scheme: "http",
            authority: host ?? "127.0.0.1:\(port)",
            path: path,
            headerFields: fields
        )
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: body)))
        let channel = NIOAsyncTestingChannel()
        channel.remoteAddress = peer
        let context = ReaderContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            // What Hummingbird's server answers to an error that escapes the responder.
            response = Response(status: .internalServerError)
        }
        let collected = Collected()
        try await response.body.write(collected)
        var names: [String: String] = [:]
        for field in response.headers { names[field.name.canonicalName] = field.value }
        let bytes = method == "HEAD" ? [] : Array(buffer: collected.buffer.value)
        return RawHTTP.Response(status: response.status.code, headers: names, body: bytes)
    }

    /// Gathers a response's body as Hummingbird's server would write it.
    private struct Collected: ResponseBodyWriter {
        final class Box { var value = ByteBuffer() }
        let buffer = Box()

        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            self.buffer.value.writeBuffer(&buffer)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
