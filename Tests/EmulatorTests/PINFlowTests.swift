import Foundation
import Testing
import TwfeedEmulator

@Suite struct PINFlowTests {
    static func form(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            result[parts[0]] = parts.count > 1 ? parts[1].removingPercentEncoding : ""
        }
        return result
    }

    @Test func pinFlowIssuesAWorkingAccessToken() throws {
        try withEmulator { emulator, client in
            var consumerOnly = TestSigner()
            consumerOnly.token = nil
            consumerOnly.tokenSecret = ""
            consumerOnly.extra = [("oauth_callback", "oob")]
            let requestToken = try TestClient(emulator: emulator, signer: consumerOnly).send("POST", "/oauth/request_token")
            #expect(requestToken.status == 200)
            let issued = Self.form(requestToken.text)
            #expect(issued["oauth_callback_confirmed"] == "true")
            let token = try #require(issued["oauth_token"])
            let secret = try #require(issued["oauth_token_secret"])

            let page = try TestClient(emulator: emulator, signer: nil).get("/oauth/authorize", [("oauth_token", token)])
            #expect(page.status == 200)
            let pin = try #require(emulator.pin(forRequestToken: token))
            #expect(page.text.contains(pin))
            #expect(pin.count == 7)

            var withRequestToken = TestSigner()
            withRequestToken.token = token
            withRequestToken.tokenSecret = secret
            withRequestToken.extra = [("oauth_verifier", "0000000" == pin ? "1111111" : "0000000")]
            let wrongPIN = try TestClient(emulator: emulator, signer: withRequestToken).send("POST", "/oauth/access_token")
            #expect(wrongPIN.status == 401)

            withRequestToken.extra = [("oauth_verifier", pin)]
            let access = try TestClient(emulator: emulator, signer: withRequestToken).send("POST", "/oauth/access_token")
            #expect(access.status == 200)
            let granted = Self.form(access.text)
            #expect(granted["user_id"] == Emulator.accountUserID)
            #expect(granted["screen_name"] == "twfeed_demo")

            let credentials = EmulatorCredentials(
                consumerKey: EmulatorCredentials.demo.consumerKey, consumerSecret: EmulatorCredentials.demo.consumerSecret,
                accessToken: try #require(granted["oauth_token"]), accessTokenSecret: try #require(granted["oauth_token_secret"]))
            let newClient = TestClient(emulator: emulator, signer: TestSigner(credentials))
            let me = try newClient.get("/2/users/me")
            #expect(me.status == 200)
            #expect(me.object[path: "data", "username"] as? String == "twfeed_demo")
            // The new token has its own rate-limit bucket; the configured one still works.
            #expect(me.intHeader("x-rate-limit-remaining") == 74)
            #expect(try client.get("/2/users/me").status == 200)
            // A request token is good for one exchange only.
            #expect(emulator.pin(forRequestToken: token) == nil)
            withRequestToken.extra = [("oauth_verifier", pin)]
            #expect(try TestClient(emulator: emulator, signer: withRequestToken).send("POST", "/oauth/access_token").status == 401)
        }
    }

    @Test func requestTokenNeedsTheConsumerSignature() throws {
        try withEmulator { emulator, _ in
            var signer = TestSigner()
            signer.token = nil
            signer.tokenSecret = ""
            signer.consumerSecret = "wrong"
            signer.extra = [("oauth_callback", "oob")]
            let refused = try TestClient(emulator: emulator, signer: signer).send("POST", "/oauth/request_token")
            #expect(refused.status == 401)
            #expect(refused.text.contains("\"code\":32"))
        }
    }
}
