import Foundation
import TwfeedCore

/// Everything the reader hands out, signed with its secret so that none of it is stored:
/// a one-time login link's token, a session, a form's CSRF token, an Atom feed's key.
/// Each MAC covers a purpose word, so a value made for one purpose never passes for
/// another. Times are Unix seconds of the wall clock of this machine, which both the
/// reader and `twfeed open` read.
package struct ReaderKeys: Sendable {
    let secret: ReaderSecret

    /// How long a login link from `twfeed open` may wait before it is used.
    package static let loginLifetime: TimeInterval = 10 * 60
    /// How long a session lasts (the cookie's Max-Age).
    package static let sessionLifetime: TimeInterval = 30 * 86_400

    package init(secret: ReaderSecret) {
        self.secret = secret
    }

    private func mac(_ purpose: String, _ parts: String...) -> String {
        HMACSHA256.hex(key: secret.key, ([purpose] + parts).joined(separator: "\n"))
    }

    // MARK: Login links

    /// `NONCE.EXPIRES.MAC`: good once, until `now` + `loginLifetime`.
    package func loginToken(now: Date) -> String {
        let nonce = Hex.random(bytes: 16)
        let expires = String(Int64(now.timeIntervalSince1970 + Self.loginLifetime))
        return "\(nonce).\(expires).\(mac("login", nonce, expires))"
    }

    /// A login token's nonce and expiry, when its MAC is right and it has not expired.
    /// That it is used once is the caller's to check (`ReaderAccess`).
    package func verifyLogin(_ token: String, now: Date) -> (nonce: String, expires: Date)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let expires = Int64(parts[1]),
            HMACSHA256.equalInConstantTime(parts[2], mac("login", parts[0], parts[1]))
        else { return nil }
        let expiry = Date(timeIntervalSince1970: TimeInterval(expires))
        guard expiry > now, expiry.timeIntervalSince(now) <= Self.loginLifetime + 60 else { return nil }
        return (parts[0], expiry)
    }

    // MARK: Sessions

    /// `ID.ISSUED.MAC`, the session cookie's value.
    package func session(now: Date) -> String {
        let id = Hex.random(bytes: 16)
        let issued = String(Int64(now.timeIntervalSince1970))
        return "\(id).\(issued).\(mac("session", id, issued))"
    }

    /// The session's id, when the cookie is one of ours and not older than its lifetime.
    package func verifySession(_ cookie: String, now: Date) -> String? {
        let parts = cookie.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let issued = Int64(parts[1]),
            HMACSHA256.equalInConstantTime(parts[2], mac("session", parts[0], parts[1]))
        else { return nil }
        let age = now.timeIntervalSince1970 - TimeInterval(issued)
        // A session from the future by more than a minute was not made by this clock.
        guard age > -60, age < Self.sessionLifetime else { return nil }
        return parts[0]
    }

    // MARK: Forms, Atom, scripts

    /// The CSRF token of the visitor's forms: bound to the session (or to "bearer" or
    /// "open" for the visitors without one), so it cannot be used with another.
    package func csrf(for visitor: String) -> String {
        mac("csrf", visitor)
    }

    /// The read-only key of one feed's Atom URL: it opens that feed and nothing else.
    package func atomKey(_ feed: Feed) -> String {
        mac("atom", feed.rawValue)
    }

    /// Whether `token` (an `Authorization: Bearer` value) is the secret itself.
    package func isSecret(_ token: String) -> Bool {
        HMACSHA256.equalInConstantTime(token, secret.value)
    }
}
