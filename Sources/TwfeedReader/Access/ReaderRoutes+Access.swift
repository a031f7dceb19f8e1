import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// Signing in and out of the reader.
extension ReaderRoutes {
    /// `GET /login?token=`: a good, unused token from `twfeed open` becomes a session
    /// cookie, and the browser goes on to `/home`, so the token is not left in the
    /// address bar, the history of the page shown, or a bookmark.
    static func login(_ request: Request, _ source: ReaderSource) throws -> Response {
        let home = Response(status: .seeOther, headers: [.location: "/home", .cacheControl: "no-store"])
        if source.access.mode == .none { return home }
        let now = source.clock.now()
        guard let token = FormQuery(request.uri.query)["token"] else {
            return try signInPage(status: .unauthorized, message: "This reader is private.")
        }
        guard source.access.useLogin(token, now: now) else {
            return try signInPage(status: .unauthorized, message: "This sign-in link is wrong, expired or already used.")
        }
        var response = home
        response.headers[.setCookie] = source.access.newSessionCookie(now: now)
        return response
    }

    /// `POST /signout`: ends the session in this browser.
    static func signOut(_ request: Request, _ context: ReaderContext, _ source: ReaderSource) async throws -> Response {
        _ = try await checkedForm(request, context, source)
        var response = Response(status: .seeOther, headers: [.location: "/login", .cacheControl: "no-store"])
        response.headers[.setCookie] = ReaderAccess.expiredCookie
        return response
    }

    /// The page a visitor without a session gets (401), saying how to sign in.
    static func signInPage(status: HTTPResponse.Status, message: String) throws -> Response {
        struct Model: MustacheParent {
            var message: String
            func child(named name: String) -> Any? {
                switch name {
                case "title": "sign in"
                case "message": message
                default: nil
                }
            }
        }
        var response = try html(PageTemplates.render(Model(message: message), withTemplate: "signIn"), status: status)
        response.headers[.wwwAuthenticate] = "Bearer realm=\"twfeed\""
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// A POST's form, once its token proves it comes from a page this visitor was shown
    /// (the gate already checked its origin); else 403, and nothing is changed. A body
    /// over `limit` (or one that says it is) is 413, read no further. `multipart/form-data`
    /// is read where `limit` allows files (`/compose`); any other body is a urlencoded
    /// form of at most `formLimit` bytes.
    static func checkedForm(
        _ request: Request,
        _ context: ReaderContext,
        _ source: ReaderSource,
        limit: Int = formLimit
    ) async throws
        -> PostedForm
    {
        let boundary = MultipartForm.boundary(ofContentType: request.headers[.contentType])
        let limit = boundary == nil ? min(limit, formLimit) : limit
        let tooLarge = HTTPError(
            .contentTooLarge,
            message: "refused: the form is larger than the \(limit) bytes this page takes"
                + (boundary == nil ? "" : " (\(ComposeForm.limitNote))")
        )
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit { throw tooLarge }
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: limit) } catch is NIOTooManyBytesError { throw tooLarge }
        let form = try boundary.map { try PostedForm(MultipartForm(body, boundary: $0)) } ?? PostedForm(FormQuery(String(buffer: body)))
        guard source.access.acceptsForm(token: form["csrf"], from: context.visitor) else {
            throw HTTPError(.forbidden, message: "refused: the form's token is missing or not this session's; reload the page and try again")
        }
        return form
    }

    /// The most a form without files may send: a status's text many times over.
    static let formLimit = 64 * 1024
}

/// A posted form's fields, and its files when it was `multipart/form-data`.
struct PostedForm {
    private var fields: [String: String]
    /// The file parts in the body's order, empty ones included.
    var files: [(name: String, file: MultipartForm.File)] = []

    init(_ form: FormQuery) { fields = form.values }

    init(_ form: MultipartForm) {
        fields = form.fields
        files = form.files
    }

    subscript(name: String) -> String? { fields[name] }
}
