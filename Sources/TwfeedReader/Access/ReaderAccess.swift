import Foundation
import HTTPTypes
import Hummingbird
import Synchronization
import TwfeedCore

/// Who may use the reader (`http.auth`; INTERFACE.md, "The reader as the app"). Loopback
/// keeps the network out but not the machine's other accounts, and a reader that posts
/// must not be driven by another site's page, so by default:
/// - a browser signs in with the one-time link `twfeed open` prints, which becomes an
///   HttpOnly, SameSite=Strict session cookie;
/// - a script sends the secret as `Authorization: Bearer`;
/// - an Atom feed's URL carries a key that opens that feed only (feed readers keep no
///   cookies);
/// - every form carries a token bound to the visitor, and a POST must come from the
///   reader's own origin.
/// `"none"` lets anyone who reaches the address read (the form checks stay).
package final class ReaderAccess: Sendable {
    let mode: TwfeedConfig.HTTP.Auth
    let keys: ReaderKeys
    /// The login links already used, until they expire: a link works once. One ledger
    /// for the process, so a reload (which builds a new reader) does not forget it.
    private static let usedLogins = Mutex<[String: Date]>([:])

    package static let cookieName = "twfeed_session"

    package init(mode: TwfeedConfig.HTTP.Auth, keys: ReaderKeys) {
        self.mode = mode
        self.keys = keys
    }

    /// The config's mode with the install's secret (made now if there is none). Under
    /// `"none"` no file is needed: the form tokens are signed with a key of this process.
    package convenience init(config: TwfeedConfig) throws {
        let secret =
            config.http.auth == .none
            ? ReaderSecret(value: Hex.random(bytes: 32)) : try ReaderSecret.loadOrCreate(path: ReaderSecret.path(config: config))
        self.init(mode: config.http.auth, keys: ReaderKeys(secret: secret))
    }

    /// Who sent `request`: its session cookie, else its bearer, else nobody.
    func visitor(of request: Request, now: Date) -> ReaderVisitor {
        if mode == .none { return .open }
        if let cookie = request.cookies[Self.cookieName]?.value, let id = keys.verifySession(cookie, now: now) {
            return .session(id)
        }
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer "),
            keys.isSecret(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        {
            return .bearer
        }
        return .anonymous
    }

    /// Takes a login link's token: true once per good token, false for a wrong, expired
    /// or already used one.
    func useLogin(_ token: String, now: Date) -> Bool {
        guard let (nonce, expires) = keys.verifyLogin(token, now: now) else { return false }
        return Self.usedLogins.withLock { used in
            used = used.filter { $0.value > now }
            guard used[nonce] == nil else { return false }
            used[nonce] = expires
            return true
        }
    }

    /// The `Set-Cookie` value of a new session.
    func newSessionCookie(now: Date) -> String {
        "\(Self.cookieName)=\(keys.session(now: now)); Path=/; Max-Age=\(Int(ReaderKeys.sessionLifetime)); HttpOnly; SameSite=Strict"
    }

    /// The `Set-Cookie` value that ends the session in this browser.
    static var expiredCookie: String { "\(cookieName)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" }

    /// The token the visitor's forms carry; nil for a visitor who may not post.
    func formToken(for visitor: ReaderVisitor) -> String? {
        visitor.formBinding.map(keys.csrf(for:))
    }

    /// Whether a form's token is the visitor's own.
    func acceptsForm(token: String?, from visitor: ReaderVisitor) -> Bool {
        guard let token, let expected = formToken(for: visitor) else { return false }
        return HMACSHA256.equalInConstantTime(token, expected)
    }

    /// Whether a POST says it comes from a page of this reader: its `Origin` (or, when
    /// a browser sends none, its `Referer`) is `http://` and the host it was sent to.
    /// A request that says neither is refused too.
    static func isSameOrigin(_ request: Request) -> Bool {
        guard let host = request.head.authority, !host.isEmpty else { return false }
        let own = "http://\(host)".lowercased()
        if let origin = request.headers[.origin] { return origin.lowercased() == own }
        if let referer = request.headers[.referer]?.lowercased() { return referer == own || referer.hasPrefix(own + "/") }
        return false
    }

    /// Whether a route needs a signed-in visitor. `/healthz`, the stylesheet and icon and
    /// the login route are open; `/metrics` is open to peers on this machine; an Atom
    /// feed opens to its own key.
    func admits(_ request: Request, context: ReaderContext) -> Bool {
        if context.visitor.signedIn { return true }
        let path = request.uri.path
        if path == "/healthz" || path == "/login" || path.hasPrefix("/static/") { return true }
        if path == "/metrics" { return context.peerIsLoopback }
        if path.hasPrefix("/feeds/"), path.hasSuffix(".atom"),
            let feed = Feed(rawValue: String(path.dropFirst("/feeds/".count).dropLast(".atom".count))),
            let key = FormQuery(request.uri.query)["key"]
        {
            return HMACSHA256.equalInConstantTime(key, keys.atomKey(feed))
        }
        return false
    }
}
