import Testing
@testable import TwfeedKit
import TwfeedTesting

/// The published vectors in ../shared/reference/oauth-test-vectors.md, written out here
/// so the signer is tested in every clone.
struct OAuthSignerTests {
    static let twitterSigner = OAuthSigner(
        consumerKey: "xvz1evFS4wEEPTGEFPHBog",
        consumerSecret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
        token: .init(key: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", secret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"),
        clock: ManualClock())

    static func parameters(of header: String) -> [String: String] {
        var result: [String: String] = [:]
        for part in header.dropFirst("OAuth ".count).components(separatedBy: ", ") {
            let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
            result[pieces[0]] = PercentEncoding.decode(String(pieces[1].dropFirst().dropLast()))
        }
        return result
    }

    @Test func twitterDocumentationExample() {
        let header = Self.twitterSigner.authorizationHeader(
            method: "POST", url: "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
            formBody: [("status", "Hello Ladies + Gentlemen, a signed OAuth request!")],
            nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", timestamp: 1_318_622_958)
        #expect(header.contains("oauth_signature=\"hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D\""))
        #expect(Self.parameters(of: header)["oauth_signature"] == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=")
    }

    @Test func twitterExampleBaseString() {
        let base = OAuthSigner.signatureBaseString(
            method: "POST", url: "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
            parameters: [
                ("status", "Hello Ladies + Gentlemen, a signed OAuth request!"),
                ("oauth_consumer_key", "xvz1evFS4wEEPTGEFPHBog"),
                ("oauth_nonce", "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg"),
                ("oauth_signature_method", "HMAC-SHA1"),
                ("oauth_timestamp", "1318622958"),
                ("oauth_token", "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb"),
                ("oauth_version", "1.0"),
            ])
        #expect(base == "POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521")
    }

    /// `oauth_timestamp` is the injected wall clock's, not `Date()`'s: a step of the clock,
    /// forward or back, moves it by exactly as many seconds.
    @Test func theTimestampComesFromTheInjectedWallClock() throws {
        let clock = ManualClock()
        let signer = OAuthSigner(consumerKey: "ck", consumerSecret: "cs", token: .init(key: "tk", secret: "ts"), clock: clock)
        func timestamp() throws -> Int {
            let header = signer.authorizationHeader(method: "GET", url: "https://api.x.com/2/users/me")
            return try #require(Self.parameters(of: header)["oauth_timestamp"].flatMap { Int($0) })
        }
        let start = try timestamp()
        #expect(start == Int(clock.now().timeIntervalSince1970))
        clock.stepWallClock(by: 3_600)
        #expect(try timestamp() == start + 3_600)
        clock.stepWallClock(by: -7_200)
        #expect(try timestamp() == start - 3_600)
        clock.advance(by: 90)
        #expect(try timestamp() == start - 3_510)
    }

    @Test func olderURLSignsDifferently() {
        let header = Self.twitterSigner.authorizationHeader(
            method: "POST", url: "https://api.twitter.com/1/statuses/update.json?include_entities=true",
            formBody: [("status", "Hello Ladies + Gentlemen, a signed OAuth request!")],
            nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", timestamp: 1_318_622_958)
        #expect(Self.parameters(of: header)["oauth_signature"] == "tnnArxj06cWHq44gCs1OSKk/jLY=")
    }

    @Test func rfc5849Example() {
        // The form body `c2&a3=2+q`: `+` is a space, `c2` has an empty value.
        let body = PercentEncoding.parseForm("c2&a3=2+q")
        let base = OAuthSigner.signatureBaseString(
            method: "POST", url: "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b",
            parameters: body + [
                ("oauth_consumer_key", "9djdj82h48djs9d2"),
                ("oauth_token", "kkk9d7dh3k39sjv7"),
                ("oauth_signature_method", "HMAC-SHA1"),
                ("oauth_timestamp", "137131201"),
                ("oauth_nonce", "7d8f3e4a"),
            ])
        #expect(base == "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7")
        #expect(OAuthSigner.hmacSHA1(base: base, key: "j49sk3j29djd&dh893hdasih9") == "r6/TJjbCOr97/+UU0NsvSne7s5g=")
    }

    @Test(arguments: [
        ("a b", "a%20b"),
        ("a+b", "a%2Bb"),
        ("~-._", "~-._"),
        ("*", "%2A"),
        ("!", "%21"),
        ("line\nbreak", "line%0Abreak"),
        ("é", "%C3%A9"),
        ("日本", "%E6%97%A5%E6%9C%AC"),
        ("😀", "%F0%9F%98%80"),
        ("%", "%25"),
    ])
    func percentEncoding(input: String, expected: String) {
        #expect(PercentEncoding.encode(input) == expected)
        #expect(PercentEncoding.decode(expected) == input)
    }

    @Test func baseURLIsNormalized() {
        #expect(OAuthSigner.normalize("HTTPS://API.X.com:443/2/Tweets?x=1#frag").baseURL == "https://api.x.com/2/Tweets")
        #expect(OAuthSigner.normalize("http://Example.COM:80/a").baseURL == "http://example.com/a")
        #expect(OAuthSigner.normalize("http://127.0.0.1:8080/a?b=c").baseURL == "http://127.0.0.1:8080/a")
        #expect(OAuthSigner.normalize("https://example.com").baseURL == "https://example.com/")
    }

    @Test func signatureChangesWithTheSecret() {
        var other = Self.twitterSigner
        other.token?.secret = "different"
        let url = "https://api.x.com/2/users/me"
        let first = Self.parameters(of: Self.twitterSigner.authorizationHeader(method: "GET", url: url, nonce: "n", timestamp: 1))
        let second = Self.parameters(of: other.authorizationHeader(method: "GET", url: url, nonce: "n", timestamp: 1))
        #expect(first["oauth_signature"] != second["oauth_signature"])
        #expect(first["oauth_token"] == second["oauth_token"])
    }

    @Test func noncesAreFreshAndAlphanumeric() {
        let nonces = (0 ..< 100).map { _ in OAuthSigner.makeNonce() }
        #expect(Set(nonces).count == 100)
        #expect(nonces.allSatisfy { $0.count == 32 && $0.allSatisfy { $0.isLetter || $0.isNumber } })
    }

    @Test func headerNeverCarriesASecret() {
        let header = Self.twitterSigner.authorizationHeader(method: "GET", url: "https://api.x.com/2/users/me")
        #expect(!header.contains("kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw"))
        #expect(!header.contains("LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"))
    }
}
