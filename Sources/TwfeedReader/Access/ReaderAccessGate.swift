import HTTPTypes
import Hummingbird
import Logging
import TwfeedCore

/// Sets the request's visitor and turns away what `ReaderAccess` does not admit: 401
/// with a page that says how to sign in, and 403 for a POST from another origin, before
/// any route runs (a route that changes something also checks the form's token). Logs a
/// sign-in (`http.signed_in`) and a refused form (`http.refused`), never a token.
struct ReaderAccessGate: RouterMiddleware {
    let access: ReaderAccess
    let clock: any WallClock
    let logger: Logger

    func handle(_ request: Request, context: ReaderContext, next: (Request, ReaderContext) async throws -> Response) async throws -> Response {
        var context = context
        context.visitor = access.visitor(of: request, now: clock.now())
        guard access.admits(request, context: context) else {
            return try ReaderRoutes.signInPage(status: .unauthorized, message: "This reader is private.")
        }
        do {
            if request.method == .post, !ReaderAccess.isSameOrigin(request) {
                throw HTTPError(.forbidden, message: "refused: this form was not sent from a page of this reader")
            }
            let response = try await next(request, context)
            if request.uri.path == "/login", response.headers[.setCookie] != nil {
                logger.info("http.signed_in", metadata: ["peer": "\(context.peerIsLoopback ? "loopback" : "remote")"])
            }
            return response
        } catch let error as HTTPError where error.status == .forbidden {
            logger.warning(
                "http.refused",
                metadata: [
                    "path": "\(request.uri.path)", "origin": "\(request.headers[.origin] ?? "none")",
                    "reason": "\(error.body ?? "forbidden")",
                ]
            )
            throw error
        }
    }
}
