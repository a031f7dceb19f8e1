/// Why a request's OAuth was refused; each maps to the dialect's 401.
enum OAuthFailure: Error, Equatable {
    /// No or unreadable header, unknown consumer, wrong method or version (v1.1 code 32).
    case couldNotAuthenticate
    /// The access (or request) token is not one the emulator issued (v1.1 code 89).
    case invalidToken
    /// `oauth_timestamp` is too far from the emulator's clock (v1.1 code 135).
    case timestampOutOfBounds
    /// The signature does not match (v1.1 code 32).
    case badSignature
    /// The nonce was already used within the window: a replayed request (v1.1 code 32).
    case nonceReused
}
