/// Whose feed positions and feed tags a read or a write is for. Feeds are kept per
/// account (signing in as another account starts its own), so every sync state says
/// whose it is.
package enum AccountScope: Sendable, Equatable {
    /// Whoever is signed in when the store runs the read or write: for a state made
    /// before any was read.
    case signedIn
    /// This account's; nil for the rows stored before any account was known (the first
    /// account to sign in adopts them).
    case account(UserID?)
}
