import Foundation
import TwfeedBase
import TwfeedCore

/// Signs requests with OAuth 1.0a HMAC-SHA1.
///
/// twfeed builds the signature base string itself, because liboauth does not
/// normalize the base URL, and lets liboauth compute the HMAC. liboauth initialises
/// NSS lazily and not thread-safely, so every call into it is serialized (`LibOAuth`).
package struct OAuthSigner: Sendable {
    package struct Token: Sendable, Equatable {
        package var key: String
        package var secret: String
        package init(key: String, secret: String) {
            self.key = key
            self.secret = secret
        }
    }

    package var consumerKey: String
    package var consumerSecret: String
    package var token: Token?
    /// Where `oauth_timestamp` comes from: the daemon's injected clock, so a test (or the
    /// fault matrix's racing clock) signs at the time it set, as the rest of the daemon
    /// reads it.
    package var clock: any WallClock

    package init(consumerKey: String, consumerSecret: String, token: Token? = nil, clock: any WallClock) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.token = token
        self.clock = clock
    }

    package init(credentials: Credentials, clock: any WallClock) {
        var token: Token?
        if let key = credentials.accessToken, let secret = credentials.accessTokenSecret, !key.isEmpty {
            token = Token(key: key, secret: secret)
        }
        self.init(consumerKey: credentials.consumerKey, consumerSecret: credentials.consumerSecret, token: token, clock: clock)
    }

    /// The value of the `Authorization` header for a request.
    ///
    /// - Parameters:
    ///   - formBody: the decoded pairs of an `application/x-www-form-urlencoded` body;
    ///     a JSON body is not signed and is left out.
    ///   - extra: further `oauth_*` parameters (`oauth_callback`, `oauth_verifier`).
    ///   - timestamp: epoch seconds; nil reads the clock (a published test vector gives its own).
    package func authorizationHeader(
        method: String,
        url: String,
        formBody: [(String, String)] = [],
        extra: [(String, String)] = [],
        nonce: String = OAuthSigner.makeNonce(),
        timestamp: Int? = nil
    ) -> String {
        let timestamp = timestamp ?? Int(clock.now().timeIntervalSince1970)
        var oauth: [(String, String)] = [
            ("oauth_consumer_key", consumerKey),
            ("oauth_nonce", nonce),
            ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", String(timestamp)),
            ("oauth_version", "1.0"),
        ]
        if let token { oauth.append(("oauth_token", token.key)) }
        oauth += extra
        let base = Self.signatureBaseString(method: method, url: url, parameters: oauth + formBody)
        let signature = Self.hmacSHA1(base: base, key: signingKey)
        oauth.append(("oauth_signature", signature))
        oauth.sort { $0.0 < $1.0 }
        return "OAuth "
            + oauth.map { "\(PercentEncoding.encode($0.0))=\"\(PercentEncoding.encode($0.1))\"" }
            .joined(separator: ", ")
    }

    package var signingKey: String {
        PercentEncoding.encode(consumerSecret) + "&" + PercentEncoding.encode(token?.secret ?? "")
    }

    /// RFC 5849 section 3.4.1: method, normalized base URL, and every parameter of the
    /// query and the given list, encoded, sorted by name then value, joined.
    package static func signatureBaseString(method: String, url: String, parameters: [(String, String)]) -> String {
        let (baseURL, query) = normalize(url)
        let raw: [(String, String)] = PercentEncoding.parseForm(query) + parameters
        var encoded: [(name: String, value: String)] = raw.map { pair in
            (PercentEncoding.encode(pair.0), PercentEncoding.encode(pair.1))
        }
        // Encoded text is ASCII, so String order is byte order, as the RFC asks.
        encoded.sort { lhs, rhs in lhs.name != rhs.name ? lhs.name < rhs.name : lhs.value < rhs.value }
        let all = encoded.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return [method.uppercased(), PercentEncoding.encode(baseURL), PercentEncoding.encode(all)].joined(separator: "&")
    }

    /// Lowercase scheme and host, no default port, no query or fragment; the path keeps
    /// its encoding. Returns the base URL and the raw query.
    static func normalize(_ url: String) -> (baseURL: String, query: String) {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var query = ""
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        guard let schemeEnd = rest.range(of: "://") else { return (String(rest), query) }
        let scheme = rest[..<schemeEnd.lowerBound].lowercased()
        let afterScheme = rest[schemeEnd.upperBound...]
        let pathStart = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        var authority = afterScheme[..<pathStart].lowercased()
        if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
        let defaultPort = scheme == "https" ? ":443" : ":80"
        if authority.hasSuffix(defaultPort) {
            authority = String(authority.dropLast(defaultPort.count))
        }
        var path = String(afterScheme[pathStart...])
        if path.isEmpty { path = "/" }
        return ("\(scheme)://\(authority)\(path)", query)
    }

    /// Base64 HMAC-SHA1 through liboauth (TwfeedBase's `LibOAuth`: one lock per process).
    package static func hmacSHA1(base: String, key: String) -> String {
        LibOAuth.hmacSHA1(base: base, key: key)
    }

    /// 32 random alphanumerics from the system's secure generator.
    package static func makeNonce() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}
