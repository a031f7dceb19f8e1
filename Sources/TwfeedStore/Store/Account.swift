import Foundation
import GRDB
import TwfeedCore

/// The signed-in account as the database remembers it: its own user id (needed by the
/// v2 timeline paths), cached so the daemon asks `/2/users/me` once, not on every start,
/// and the access token it belongs to, so a new sign-in asks again.
package struct Account: Sendable, Equatable {
    package var userID: UserID
    package var username: String?
    /// The token the user id was looked up with.
    package var accessToken: String?
    /// When the API last told who the account is (its name and picture are refreshed
    /// once a UTC day); nil before this was kept.
    package var refreshedAt: Date?

    package init(userID: UserID, username: String? = nil, accessToken: String? = nil, refreshedAt: Date? = nil) {
        self.userID = userID
        self.username = username
        self.accessToken = accessToken
        self.refreshedAt = refreshedAt
    }
}

/// The account table's keys: written and read only here.
private enum AccountKey {
    static let userID = "userId"
    static let username = "username"
    static let accessToken = "accessToken"
    static let refreshedAt = "refreshedAt"
}

extension AppDatabase {

    /// Remembers the account, in one transaction; nil fields are left as they were.
    /// A different user id signs the database in as that account: feed tags, counts and
    /// positions are read and written under it from now on (the previous account's stay
    /// stored, for when it signs in again).
    package func saveAccount(_ account: Account) async throws {
        try await write { db in try Self.saveAccount(account, db) }
    }

    static func saveAccount(_ account: Account, _ db: Database) throws {
        let values = [
            AccountKey.userID: account.userID.description,
            AccountKey.username: account.username,
            AccountKey.accessToken: account.accessToken,
            AccountKey.refreshedAt: account.refreshedAt.map { String($0.timeIntervalSince1970) },
        ].compactMapValues { $0 }
        let hadAccount = try currentAccount(db) != 0
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "INSERT OR REPLACE INTO account (key, value) VALUES (?, ?)", arguments: [key, value])
        }
        if !hadAccount { try adoptUnownedRows(by: account.userID.rawValue, db) }
    }
}

extension StoreReading {
    /// The remembered account, nil before the first lookup.
    package func account() async throws -> Account? {
        try await read { db in try AppDatabase.account(db) }
    }
}

extension AppDatabase {
    static func account(_ db: Database) throws -> Account? {
        var values: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: StoreQueries.account.sql) {
            values[row["key"]] = row["value"]
        }
        guard let userID = values[AccountKey.userID].flatMap(UserID.init) else { return nil }
        return Account(
            userID: userID,
            username: values[AccountKey.username],
            accessToken: values[AccountKey.accessToken],
            refreshedAt: values[AccountKey.refreshedAt].flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        )
    }
}
