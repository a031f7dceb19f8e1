import Foundation

/// The tokens the emulator accepts: the configured access token, and the request and
/// access tokens handed out by the PIN flow.
struct TokenRegistry {
    struct RequestToken {
        let secret: String
        let pin: String
        let created: Date
    }

    /// Access token → secret. All belong to the account user.
    private(set) var accessTokens: [String: String]
    private var requestTokens: [String: RequestToken] = [:]

    init(configured: EmulatorCredentials) {
        accessTokens = [configured.accessToken: configured.accessTokenSecret]
    }

    func accessSecret(_ token: String) -> String? { accessTokens[token] }

    func requestSecret(_ token: String) -> String? { requestTokens[token]?.secret }

    func pin(_ requestToken: String) -> String? { requestTokens[requestToken]?.pin }

    /// A new request token with its secret and the PIN the authorize page will show.
    mutating func issueRequestToken(now: Date) -> (token: String, secret: String) {
        let token = Self.randomString(27)
        let secret = Self.randomString(32)
        let pin = String(format: "%07d", Int.random(in: 0..<10_000_000))
        requestTokens[token] = RequestToken(secret: secret, pin: pin, created: now)
        return (token, secret)
    }

    /// Trades a request token and its PIN for a new access token (single use), or nil.
    mutating func exchange(requestToken: String, verifier: String) -> (token: String, secret: String)? {
        guard let pending = requestTokens[requestToken], pending.pin == verifier else { return nil }
        requestTokens[requestToken] = nil
        let token = "\(TweetStore.accountID)-" + Self.randomString(30)
        let secret = Self.randomString(45)
        accessTokens[token] = secret
        return (token, secret)
    }

    /// Tokens are secrets, so they come from the system generator, not the data seed.
    private static func randomString(_ length: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
