import Foundation
import Logging
import TwfeedCore
import TwfeedStore

/// Knows the account's own user id, which the v2 timeline paths need. Asked of the API
/// once and kept in the database, keyed by the access token it belongs to, so a restart
/// costs no request and a new sign-in asks again.
package actor AccountResolver {
    private let api: any TwitterAPI
    private let database: AppDatabase
    private let tokenKey: String
    private let logger: Logger
    private let clock: any WallClock
    private let terms: BillingTerms
    private var cached: UserID?
    /// Feeds start together; they share one lookup rather than each asking the API.
    private var lookup: Task<UserID, any Error>?

    package init(
        api: any TwitterAPI,
        database: AppDatabase,
        accessToken: String,
        logger: Logger,
        clock: any WallClock = SystemClock(),
        terms: BillingTerms = BillingTerms()
    ) {
        self.clock = clock
        self.terms = terms
        self.api = api
        self.database = database
        tokenKey = accessToken
        self.logger = logger
    }

    package func userID() async throws -> UserID {
        if let cached { return cached }
        if let stored = try await database.account(), stored.accessToken == tokenKey {
            cached = stored.userID
            return stored.userID
        }
        if let lookup { return try await lookup.value }
        let task = Task { [api, database, tokenKey, logger, clock, terms] in
            let me = try await api.me()
            // One user read (`GET /2/users/me`), charged to `account`.
            var bill = BillableAnswer(source: .account)
            bill.read(.userRead, [me.id.rawValue])
            try await database.saveAccount(
                Account(userID: me.id, username: me.username, accessToken: tokenKey),
                bill: bill,
                prices: terms.prices,
                now: clock.now()
            )
            logger.info("account.resolved", metadata: ["user_id": "\(me.id)", "username": "\(me.username)"])
            return me.id
        }
        lookup = task
        defer { lookup = nil }
        // Shutdown cancels the pollers waiting here; the request must stop with them.
        let id = try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
        cached = id
        return id
    }
}
