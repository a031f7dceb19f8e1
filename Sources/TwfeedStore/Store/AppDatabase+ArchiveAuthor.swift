import Foundation
import GRDB
import TwfeedCore

extension AppDatabase {
    /// The archive's account as the author of its posts (`account.js`: id, username,
    /// display name), so they show a name before the API has said anything. A user the
    /// API already described keeps the API's fields (and its picture).
    package func storeArchiveAuthor(_ author: Author, now: Date) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO user (id, username, name, profileImageURL, updatedAt) VALUES (?, ?, ?, NULL, ?)
                    ON CONFLICT(id) DO NOTHING
                    """,
                arguments: [author.id.rawValue, author.username, author.name, now.timeIntervalSince1970]
            )
        }
    }
}
