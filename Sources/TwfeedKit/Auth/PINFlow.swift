import Foundation
import TwfeedCore

/// OAuth 1.0a's PIN-based ("out of band") sign-in, as `twfeed login` runs it:
///
/// 1. `POST BASE/oauth/request_token` signed with the consumer pair alone and
///    `oauth_callback=oob` → a request token;
/// 2. the user opens `BASE/oauth/authorize?oauth_token=…`, approves, and reads a PIN;
/// 3. `POST BASE/oauth/access_token` signed with the request token and
///    `oauth_verifier=PIN` → the access token pair.
package struct PINFlow: Sendable {
    package struct RequestToken: Sendable, Equatable {
        package var token: String
        package var secret: String
    }

    package struct AccessToken: Sendable, Equatable {
        package var token: String
        package var secret: String
        package var userID: String?
        package var screenName: String?
    }

    let transport: any APITransport
    let baseURL: String
    let consumerKey: String
    let consumerSecret: String
    let timeoutSeconds: Double
    /// The signer's timestamps.
    let clock: any WallClock

    package init(
        transport: any APITransport,
        baseURL: String,
        consumerKey: String,
        consumerSecret: String,
        timeoutSeconds: Double = 30,
        clock: any WallClock
    ) {
        self.transport = transport
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.timeoutSeconds = timeoutSeconds
        self.clock = clock
    }

    /// The OAuth endpoints live on the API host for both dialects (`api.x.com/oauth/…`,
    /// `api.twitter.com/oauth/…`).
    package init(
        config: TwfeedConfig,
        consumerKey: String,
        consumerSecret: String,
        transport: any APITransport,
        clock: any WallClock
    ) {
        self.init(
            transport: transport,
            baseURL: config.api.resolvedBaseURL,
            consumerKey: consumerKey,
            consumerSecret: consumerSecret,
            timeoutSeconds: config.api.timeoutSeconds,
            clock: clock
        )
    }

    /// Step 1.
    package func requestToken() async throws -> RequestToken {
        let signer = OAuthSigner(consumerKey: consumerKey, consumerSecret: consumerSecret, clock: clock)
        let fields = try await post("/oauth/request_token", signer: signer, extra: [("oauth_callback", "oob")]) { status in
            status == 401
                ? TwfeedError(.permission, "the API refused the consumer key and secret (HTTP 401): check consumerKey and consumerSecret")
                : nil
        }
        guard let token = fields["oauth_token"], let secret = fields["oauth_token_secret"], !token.isEmpty else {
            throw TwfeedError(.unavailable, "\(baseURL)/oauth/request_token: the answer holds no oauth_token")
        }
        return RequestToken(token: token, secret: secret)
    }

    /// Step 2: the page to open in a browser.
    package func authorizeURL(_ requestToken: RequestToken) -> String {
        "\(baseURL)/oauth/authorize?oauth_token=\(PercentEncoding.encode(requestToken.token))"
    }

    /// Step 3.
    package func accessToken(_ requestToken: RequestToken, pin: String) async throws -> AccessToken {
        let pin = pin.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !pin.isEmpty else { throw TwfeedError(.invalidData, "no PIN entered") }
        let signer = OAuthSigner(
            consumerKey: consumerKey,
            consumerSecret: consumerSecret,
            token: .init(key: requestToken.token, secret: requestToken.secret),
            clock: clock
        )
        let fields = try await post("/oauth/access_token", signer: signer, extra: [("oauth_verifier", pin)]) { status in
            status == 401
                ? TwfeedError(.invalidData, "the PIN was not accepted (HTTP 401): it may be mistyped or expired; run twfeed login again")
                : nil
        }
        guard let token = fields["oauth_token"], let secret = fields["oauth_token_secret"], !token.isEmpty, !secret.isEmpty else {
            throw TwfeedError(.unavailable, "\(baseURL)/oauth/access_token: the answer holds no access token")
        }
        return AccessToken(token: token, secret: secret, userID: fields["user_id"], screenName: fields["screen_name"])
    }

    /// A signed POST with an empty body whose answer is a form.
    private func post(
        _ path: String,
        signer: OAuthSigner,
        extra: [(String, String)],
        refusal: (Int) -> TwfeedError?
    ) async throws -> [String: String] {
        let url = baseURL + path
        let request = APIRequest(
            method: .post,
            url: url,
            headers: [
                ("Authorization", signer.authorizationHeader(method: "POST", url: url, extra: extra)),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            timeoutSeconds: timeoutSeconds,
            maxResponseBytes: 64 << 10
        )
        let response: APIResponse
        do {
            response = try await transport.send(request)
        } catch let error as TransportError {
            throw TwfeedError(.unavailable, "\(url): \(error.description)")
        }
        guard (200..<300).contains(response.status) else {
            if let error = refusal(response.status) { throw error }
            let code: TwfeedError.Code = response.status >= 500 || response.status == 429 ? .temporary : .unavailable
            throw TwfeedError(code, "\(url): HTTP \(response.status) \(HTTPStatusText.of(response.status))")
        }
        var fields: [String: String] = [:]
        for (name, value) in PercentEncoding.parseForm(response.bodyText) { fields[name] = value }
        return fields
    }
}
