import Foundation

/// The three-legged PIN ("out of band") flow: `request_token` (signed by the consumer
/// alone), the `authorize` page that shows the PIN, and `access_token` (signed with the
/// request token) which trades the PIN for an access token the API then accepts.
enum OAuthRoutes {
    static let formContentType = "application/x-www-form-urlencoded"

    static func requestToken(_ request: EmulatorRequest, verifier: OAuthVerifier, state: inout EmulatorState, now: Date) -> EmulatorResponse {
        if case .failure(let failure) = verifier.verify(
            request,
            defaultHost: state.authority,
            requireToken: false,
            tokenSecret: { _ in nil },
            nonces: &state.nonces,
            now: now
        ) {
            return ErrorBody.unauthorized(.v1_1, failure)
        }
        let issued = state.tokens.issueRequestToken(now: now)
        return .text(
            200,
            "oauth_token=\(OAuthSignature.percentEncode(issued.token))"
                + "&oauth_token_secret=\(OAuthSignature.percentEncode(issued.secret))&oauth_callback_confirmed=true",
            contentType: formContentType
        )
    }

    /// The page a user opens in a browser. No sign-in step: the emulator has one account.
    static func authorize(_ request: EmulatorRequest, state: EmulatorState) -> EmulatorResponse {
        guard let token = request.query("oauth_token"), let pin = state.tokens.pin(token) else {
            return .text(
                400,
                """
                <!doctype html><html><head><meta charset="utf-8"><title>twfeed emulator</title></head>
                <body><p>This page is no longer valid: the request token is unknown or was already used.</p></body></html>
                """,
                contentType: "text/html; charset=utf-8"
            )
        }
        return .text(
            200,
            """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>twfeed emulator: authorize</title></head>
            <body>
            <h1>Authorize twfeed to use your account?</h1>
            <p>Signed in as @\(TweetStore.accountUsername) (emulated).</p>
            <p>Enter this PIN in twfeed to complete the authorization:</p>
            <div id="oauth_pin"><p><kbd><code>\(pin)</code></kbd></p></div>
            </body></html>
            """,
            contentType: "text/html; charset=utf-8"
        )
    }

    static func accessToken(_ request: EmulatorRequest, verifier: OAuthVerifier, state: inout EmulatorState, now: Date) -> EmulatorResponse {
        let tokens = state.tokens
        let verified = verifier.verify(
            request,
            defaultHost: state.authority,
            requireToken: true,
            tokenSecret: { tokens.requestSecret($0) },
            nonces: &state.nonces,
            now: now
        )
        let result: OAuthVerifier.Verified
        switch verified {
        case .success(let value): result = value
        case .failure(let failure): return ErrorBody.unauthorized(.v1_1, failure)
        }
        let pin =
            result.header["oauth_verifier"]
            ?? (request.formItems + request.queryItems).first { $0.name == "oauth_verifier" }?.value
        guard let requestToken = result.token, let pin,
            let issued = state.tokens.exchange(requestToken: requestToken, verifier: pin)
        else {
            return .text(401, "Error processing your OAuth request: Invalid oauth_verifier parameter")
        }
        return .text(
            200,
            "oauth_token=\(OAuthSignature.percentEncode(issued.token))"
                + "&oauth_token_secret=\(OAuthSignature.percentEncode(issued.secret))"
                + "&user_id=\(TweetStore.accountID)&screen_name=\(TweetStore.accountUsername)",
            contentType: formContentType
        )
    }
}
