import Foundation
import Testing
import TwfeedEmulator

/// The signature machinery against the published vectors, then the verifier over real requests.
@Suite struct OAuthTests {
    // Twitter's "Creating a signature" example.
    static let twitterBase = "POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521"
    static let twitterKey = "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw&LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"
    static let twitterOAuth: [(name: String, value: String)] = [
        ("oauth_consumer_key", "xvz1evFS4wEEPTGEFPHBog"),
        ("oauth_nonce", "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg"),
        ("oauth_signature_method", "HMAC-SHA1"),
        ("oauth_timestamp", "1318622958"),
        ("oauth_token", "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb"),
        ("oauth_version", "1.0"),
    ]

    @Test func twitterExampleBaseStringAndSignature() throws {
        let form = try #require(OAuthSignature.formDecode(
            "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21"))
        let base = OAuthSignature.baseString(
            method: "post", baseURL: try #require(OAuthSignature.normalizedBaseURL("https://API.Twitter.com:443/1.1/statuses/update.json?include_entities=true")),
            parameters: [("include_entities", "true")] + form + Self.twitterOAuth)
        #expect(base == Self.twitterBase)
        #expect(OAuthSignature.hmacSHA1(base: base, key: Self.twitterKey) == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=")
        #expect(OAuthSignature.signingKey(consumerSecret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
                                          tokenSecret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE") == Self.twitterKey)
        #expect(OAuthSignature.percentEncode("hCtSmYh+iHYCEqBWrE7C7hYmtUk=") == "hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D")

        let older = OAuthSignature.baseString(
            method: "POST", baseURL: "https://api.twitter.com/1/statuses/update.json",
            parameters: [("include_entities", "true")] + form + Self.twitterOAuth)
        #expect(OAuthSignature.hmacSHA1(base: older, key: Self.twitterKey) == "tnnArxj06cWHq44gCs1OSKk/jLY=")
    }

    @Test func rfc5849ExampleBaseStringAndSignature() throws {
        let url = "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b"
        let query = try #require(OAuthSignature.formDecode(String(url.split(separator: "?")[1])))
        let form = try #require(OAuthSignature.formDecode("c2&a3=2+q"))
        let oauth: [(name: String, value: String)] = [
            ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
            ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"), ("oauth_nonce", "7d8f3e4a"),
        ]
        let base = OAuthSignature.baseString(
            method: "POST", baseURL: try #require(OAuthSignature.normalizedBaseURL(url)), parameters: query + form + oauth)
        #expect(base == "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7")
        #expect(OAuthSignature.hmacSHA1(base: base, key: "j49sk3j29djd&dh893hdasih9") == "r6/TJjbCOr97/+UU0NsvSne7s5g=")
    }

    @Test func baseURLNormalization() {
        #expect(OAuthSignature.normalizedBaseURL("HTTP://127.0.0.1:80/2/users/me?x=1") == "http://127.0.0.1/2/users/me")
        #expect(OAuthSignature.normalizedBaseURL("http://127.0.0.1:8080/2/users/me#f") == "http://127.0.0.1:8080/2/users/me")
        #expect(OAuthSignature.normalizedBaseURL("https://Example.COM") == "https://example.com/")
        #expect(OAuthSignature.percentEncode("a b+~é☃") == "a%20b%2B~%C3%A9%E2%98%83")
        #expect(OAuthSignature.percentDecode("a%2", plusAsSpace: false) == nil)
    }

    /// The Twitter example sent for real: signing the form body (with `+` for spaces and
    /// a literal `+`) exactly as a client must, and the emulator agreeing.
    @Test func signedFormPostIsAccepted() throws {
        try withEmulator { emulator, client in
            let text = "Hello Ladies + Gentlemen, a signed OAuth request! ümlaut ☃"
            let response = try client.send("POST", "/1.1/statuses/update.json", query: [("include_entities", "true")],
                                           form: [("status", text)])
            #expect(response.status == 200)
            #expect(emulator.postedStatuses.map(\.text) == [text])

            // A `+` in a form body is a space; `%2B` is a plus.
            let plain = "Hello Ladies + Gentlemen"
            let authorization = TestSigner().authorization(
                method: "POST", url: "http://127.0.0.1:\(client.port)/1.1/statuses/update.json",
                parameters: [("status", plain)])
            let body = "status=Hello+Ladies+%2B+Gentlemen"
            let connection = try TestConnection(port: client.port)
            connection.send("POST /1.1/statuses/update.json HTTP/1.1\r\nHost: 127.0.0.1:\(client.port)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nAuthorization: \(authorization)\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(connection.readResponse().response?.status == 200)
            #expect(emulator.postedStatuses.last?.text == plain)
        }
    }

    @Test func badSignatureGetsEachDialectsUnauthorized() throws {
        try withEmulator { emulator, client in
            var wrong = TestSigner()
            wrong.consumerSecret = "not-the-secret"
            let wrongClient = TestClient(emulator: emulator, signer: wrong)

            let v2 = try wrongClient.get("/2/users/me")
            #expect(v2.status == 401)
            #expect(v2.object["title"] as? String == "Unauthorized")
            #expect(v2.object["type"] as? String == "about:blank")
            #expect(v2.object["status"] as? Int == 401)
            #expect(v2.object["detail"] as? String == "Unauthorized")
            #expect(v2.header("content-type")?.hasPrefix("application/problem+json") == true)

            let v11 = try wrongClient.get("/1.1/statuses/home_timeline.json")
            #expect(v11.status == 401)
            #expect(v11.text == #"{"errors":[{"code":32,"message":"Could not authenticate you."}]}"#)

            let noHeader = try TestClient(emulator: emulator, signer: nil).get("/2/users/me")
            #expect(noHeader.status == 401)
        }
    }

    @Test func queryParametersAreSigned() throws {
        try withEmulator { emulator, client in
            // Sign one query, send another.
            let bytes = client.requestBytes("GET", "/1.1/statuses/home_timeline.json", query: [("count", "5")])
            var text = String(decoding: bytes, as: UTF8.self)
            text = text.replacingOccurrences(of: "count=5", with: "count=6")
            let connection = try TestConnection(port: client.port)
            connection.send(text)
            let response = try #require(connection.readResponse().response)
            #expect(response.status == 401)
            _ = emulator
        }
    }

    @Test func unknownTokenIsCode89() throws {
        try withEmulator { emulator, client in
            let response = try client.send("GET", "/1.1/statuses/mentions_timeline.json",
                                           mutateSigner: { $0.token = "1700000000000000001-unknown" })
            #expect(response.status == 401)
            #expect(response.text == #"{"errors":[{"code":89,"message":"Invalid or expired token."}]}"#)
            let v2 = try client.send("GET", "/2/users/me", mutateSigner: { $0.token = "nope" })
            #expect(v2.status == 401)
            #expect(v2.object["title"] as? String == "Unauthorized")
        }
    }

    @Test func staleTimestampIsCode135() throws {
        try withEmulator { emulator, client in
            let stale = Int(Date().timeIntervalSince1970) - 3_600
            let response = try client.send("GET", "/1.1/account/verify_credentials.json",
                                           mutateSigner: { $0.timestamp = stale })
            #expect(response.status == 401)
            #expect(response.text == #"{"errors":[{"code":135,"message":"Timestamp out of bounds."}]}"#)
        }
        // With the check off, the same request passes.
        try withEmulator({ $0.timestampToleranceSeconds = 0 }) { emulator, client in
            let response = try client.send("GET", "/1.1/account/verify_credentials.json",
                                           mutateSigner: { $0.timestamp = 1_318_622_958 })
            #expect(response.status == 200)
        }
    }

    @Test func replayedNonceIsRefused() throws {
        try withEmulator { emulator, client in
            let fixed: (inout TestSigner) -> Void = { $0.nonce = "the-same-nonce"; $0.timestamp = Int(Date().timeIntervalSince1970) }
            let bytes = client.requestBytes("GET", "/2/users/me", mutateSigner: fixed)
            let first = try TestConnection(port: client.port)
            first.send(bytes)
            #expect(first.readResponse().response?.status == 200)
            let replay = try TestConnection(port: client.port)
            replay.send(bytes)
            let second = try #require(replay.readResponse().response)
            #expect(second.status == 401)
        }
    }

    @Test func jsonBodyIsNotSigned() throws {
        try withEmulator { emulator, client in
            // The signer signs no body parameters; the JSON body must not be part of the base string.
            let response = try client.send("POST", "/2/tweets", json: #"{"text":"json bodies are not signed"}"#)
            #expect(response.status == 201)
        }
    }
}
