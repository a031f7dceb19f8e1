import HTTPTypes
import Hummingbird
import Logging
import TwfeedCore

/// What every answer of the reader gets, errors included:
/// - GET and HEAD, and POST only where a form posts (`ReaderRoutes.acceptsPost`;
///   anything else is 405 with `Allow`): a GET never changes anything;
/// - a `Content-Security-Policy` that allows no script at all, and images and styles
///   from the reader itself only: even a tweet that got past escaping could not run;
/// - while it serves loopback only, a `Host` that names loopback, so a web page that
///   rebinds its own host name to 127.0.0.1 (DNS rebinding) cannot read the timeline.
struct ReaderHeaders<Context: RequestContext>: RouterMiddleware {
    let loopbackOnly: Bool
    let logger: Logger

    static var contentSecurityPolicy: String {
        "default-src 'none'; script-src 'none'; img-src 'self'; style-src 'self'; form-action 'self'; "
            + "base-uri 'none'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        let posts = ReaderRoutes.acceptsPost(request.uri.path)
        if request.method != .get && request.method != .head && !(request.method == .post && posts) {
            response = Self.plain(.methodNotAllowed, posts ? "only GET, HEAD and POST\n" : "only GET and HEAD: this page changes nothing\n")
            response.headers[.allow] = posts ? "GET, HEAD, POST" : "GET, HEAD"
        } else if loopbackOnly, !Self.isLoopbackHost(request.head.authority) {
            response = Self.plain(.misdirectedRequest, "this reader answers only to a loopback host name (localhost, 127.0.0.1, [::1])\n")
        } else {
            do {
                response = try await next(request, context)
            } catch let error as HTTPError {
                response = Self.plain(error.status, (error.body ?? error.status.reasonPhrase) + "\n")
            } catch let failure as RenderFailure {
                // A bug, not the store: one line naming the template, never an empty 200.
                logger.error(
                    "http.render_failed",
                    metadata: ["path": "\(request.uri.path)", "template": "\(failure.template)", "error": "\(failure.code.rawValue)"]
                )
                response = Self.plain(.internalServerError, "the reader cannot show this page: \(failure.message)\n")
            } catch {
                // The store failed (an I/O error, a database from a newer twfeed): one
                // line in the log, and the same line, without a trace, in the answer.
                let message = (error as? TwfeedError)?.message ?? "\(error)"
                logger.error("http.error", metadata: ["path": "\(request.uri.path)", "error": "\(message)"])
                response = Self.plain(.internalServerError, "the reader cannot read the store: \(message)\n")
            }
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        // Not `no-referrer`: under it a browser sends `Origin: null` with a form's POST,
        // and the reader could not tell its own forms from another site's. `same-origin`
        // still tells other sites nothing.
        response.headers[.referrerPolicy] = "same-origin"
        return response
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// `localhost`, `127.x.x.x` or `[::1]`, with or without a port.
    static func isLoopbackHost(_ authority: String?) -> Bool {
        guard var host = authority?.lowercased(), !host.isEmpty else { return false }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            return host[host.index(after: host.startIndex)..<close] == "::1"
        }
        if let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        return ListenAddress.isIPv4(host) && host.hasPrefix("127.")
    }
}

extension HTTPField.Name {
    static var xContentTypeOptions: Self { .init("X-Content-Type-Options")! }
    static var referrerPolicy: Self { .init("Referrer-Policy")! }
}
