import Foundation
import Logging
import TwfeedArchive
import TwfeedCore
import TwfeedStore

/// Whose archive may be imported: the signed-in account's, or, before sign-in, the
/// database's (docs/INTERFACE.md, "Your history: the X archive"). Another account's is
/// refused (65) naming both, before anything is written.
extension ArchiveImporter {
    /// The account the credentials file at `path` says is signed in, without asking the
    /// API (`Credentials.signedInUserID`: the id `login` recorded, else the one its access
    /// token starts with); nil before sign-in: no file, no token pair, or a token that
    /// does not tell. A file that is there but cannot be read is its own error, as for
    /// every command that reads it.
    package static func signedInAccount(credentials path: String) throws -> Account? {
        var info = stat()
        if stat(path, &info) != 0 && errno == ENOENT { return nil }
        let credentials = try Credentials.load(from: path)
        return credentials.signedInUserID.map { Account(userID: $0, username: credentials.username) }
    }

    /// Refuses an archive that is not `expected`'s: one line naming both accounts, exit 65.
    /// `signedIn` says whether `expected` is the signed-in account or the database's.
    package static func requireOwn(_ archive: any ArchiveReading, expected: Account, signedIn: Bool, logger: Logger) throws {
        let theirs = archive.account
        guard expected.userID != theirs.id else { return }
        let ours = expected.username.map { "@\($0) (id \(expected.userID))" } ?? "id \(expected.userID)"
        logger.warning("import.refused", metadata: ["file": "data/account.js", "reason": "another_account"])
        throw TwfeedError(
            .invalidData,
            "data/account.js: the archive is @\(theirs.username)'s (id \(theirs.id)), but \(signedIn ? "the signed-in account" : "this database's account") is \(ours)"
        )
    }

    /// Whose tags the archive's posts get: the archive's, once it is found to be the
    /// signed-in account's (`signedIn`) or, before sign-in, the database's account's. A
    /// database that knows no account yet takes the archive's, so `feed posts` shows them
    /// at once; one that knows another while the archive is the signed-in account's is
    /// signed in as it, as the daemon's next lookup would (the other's rows stay, for when
    /// it signs in again).
    func owner(of archive: any ArchiveReading, dryRun: Bool) async throws -> UserID {
        let theirs = archive.account
        let stored = try await database.account()
        if var expected = signedIn {
            // The name the credentials lack, the database may know.
            if expected.username == nil, stored?.userID == expected.userID { expected.username = stored?.username }
            try Self.requireOwn(archive, expected: expected, signedIn: true, logger: logger)
        } else if let stored {
            try Self.requireOwn(archive, expected: stored, signedIn: false, logger: logger)
        }
        if stored?.userID != theirs.id, !dryRun {
            try await database.saveAccount(Account(userID: theirs.id, username: theirs.username))
        }
        return theirs.id
    }
}
