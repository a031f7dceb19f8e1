import Foundation

/// Checks a request's OAuth 1.0a HMAC-SHA1 signature from what was received.
struct OAuthVerifier {
    let consumerKey: String
    let consumerSecret: String
    /// Seconds an `oauth_timestamp` may be off; 0 disables the check.
    let timestampTolerance: Int

    /// What a verified request was signed with.
    struct Verified {
        let token: String?
        let header: OAuthHeader
    }

    /// Verifies `request`. `tokenSecret` looks a token up (nil: unknown token);
    /// `requireToken` is false only for `request_token`, which is signed by the consumer alone.
    func verify(
        _ request: EmulatorRequest,
        defaultHost: String,
        requireToken: Bool,
        tokenSecret: (String) -> String?,
        nonces: inout NonceCache,
        now: Date
    ) -> Result<Verified, OAuthFailure> {
        guard let headerText = request.header("authorization"), let header = OAuthHeader(headerText),
            let signature = header["oauth_signature"], let nonce = header["oauth_nonce"], !nonce.isEmpty,
            let timestampText = header["oauth_timestamp"], let timestamp = Double(timestampText),
            header["oauth_consumer_key"] == consumerKey,
            header["oauth_signature_method"] == "HMAC-SHA1",
            header["oauth_version"] == nil || header["oauth_version"] == "1.0"
        else { return .failure(.couldNotAuthenticate) }

        var secret = ""
        let token = header["oauth_token"].flatMap { $0.isEmpty ? nil : $0 }
        if let token {
            guard let found = tokenSecret(token) else { return .failure(.invalidToken) }
            secret = found
        } else if requireToken {
            return .failure(.invalidToken)
        }

        if timestampTolerance > 0, abs(now.timeIntervalSince1970 - timestamp) > Double(timestampTolerance) {
            return .failure(.timestampOutOfBounds)
        }

        guard let base = Self.signatureBaseString(request, header: header, defaultHost: defaultHost) else {
            return .failure(.couldNotAuthenticate)
        }
        let expected = OAuthSignature.hmacSHA1(
            base: base,
            key: OAuthSignature.signingKey(consumerSecret: consumerSecret, tokenSecret: secret)
        )
        guard Self.constantTimeEqual(expected, signature) else { return .failure(.badSignature) }

        // Only a correctly signed request uses up its nonce, so garbage cannot block one.
        let retention = timestampTolerance > 0 ? Double(timestampTolerance) * 2 : 900
        guard nonces.insert("\(consumerKey)|\(token ?? "")|\(nonce)", now: now, retention: retention) else {
            return .failure(.nonceReused)
        }
        return .success(Verified(token: token, header: header))
    }

    /// The base string of a received request: `http://` + the Host header (what the
    /// client put in its URL) + the path as sent; parameters from the query, a form body
    /// and the header.
    static func signatureBaseString(_ request: EmulatorRequest, header: OAuthHeader, defaultHost: String) -> String? {
        let host = request.header("host").flatMap { $0.isEmpty ? nil : $0 } ?? defaultHost
        guard let baseURL = OAuthSignature.normalizedBaseURL("http://\(host)\(request.path)"),
            let query = OAuthSignature.formDecode(request.rawQuery)
        else { return nil }
        var parameters = query
        if request.hasFormBody {
            guard let form = OAuthSignature.formDecode(String(decoding: request.body, as: UTF8.self)) else { return nil }
            parameters += form
        }
        parameters += header.parameters.filter { $0.name != "oauth_signature" }
        return OAuthSignature.baseString(method: request.method, baseURL: baseURL, parameters: parameters)
    }

    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
