import Foundation
import Logging
import TwfeedBase
import TwfeedBilling
import TwfeedCore
import TwfeedStore

/// Knows the account's own user id, which the v2 timeline paths need, and keeps the
/// account's own name and picture fresh. Asked of the API (`GET /2/users/me`, v1.1
/// `verify_credentials`) and kept in the database, keyed by the access token it belongs
/// to, so a restart costs no request and a new sign-in asks again; asked again once a UTC
/// day (one user read, $0.010 a day), so a new name or picture shows by the next day
/// however rarely the account's own posts come by.
///
/// Through the billing gate (source `account`) when there is one: a refusal for money
/// becomes the gate's state, and a refresh the gate holds back waits, the known id
/// serving meanwhile.
package actor AccountResolver {
    private let api: any TwitterAPI
    private let database: AppDatabase
    private let tokenKey: String
    private let logger: Logger
    private let clock: any WallClock
    private let terms: BillingTerms
    private let gate: BillingGate?
    private var cached: Account?
    /// Feeds start together; they share one lookup rather than each asking the API.
    private var lookup: Task<Account, any Error>?
    /// A refresh that failed or was held is not tried again before this.
    private var retryAt: Date?

    /// How long a refresh that failed (not held by the gate) waits before the next try:
    /// the known id serves meanwhile, so a failing `users/me` costs a request every 15
    /// minutes, not one per poll.
    static let retryAfterFailure: TimeInterval = 15 * 60

    package init(
        api: any TwitterAPI,
        database: AppDatabase,
        accessToken: String,
        logger: Logger,
        clock: any WallClock = SystemClock(),
        terms: BillingTerms = BillingTerms(),
        gate: BillingGate? = nil
    ) {
        self.clock = clock
        self.terms = terms
        self.api = api
        self.database = database
        tokenKey = accessToken
        self.logger = logger
        self.gate = gate
    }

    /// The account's user id: the one stored when there is one (refreshed first when the
    /// UTC day changed since the last refresh, unless the refresh cannot be made now),
    /// else asked of the API, which throws what the API or the gate said.
    package func userID() async throws -> UserID {
        let now = clock.now()
        if cached == nil, let stored = try await database.account(), stored.accessToken == tokenKey { cached = stored }
        guard let known = cached else { return try await resolve() }
        guard Self.refreshDue(known.refreshedAt, now: now), retryAt.map({ now >= $0 }) ?? true else { return known.userID }
        do {
            return try await resolve()
        } catch let hold as BillingGate.Hold {
            // The budget or a billing state: the refresh waits, the known id serves.
            retryAt = hold.until
            return known.userID
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            retryAt = now.addingTimeInterval(Self.retryAfterFailure)
            logger.warning("account.refresh_failed", metadata: ["error": "\(error)", "retry_in_s": "\(Int(Self.retryAfterFailure))"])
            return known.userID
        }
    }

    /// Whether the account was last told about on an earlier UTC day (or never).
    static func refreshDue(_ refreshedAt: Date?, now: Date) -> Bool {
        guard let refreshedAt else { return true }
        return BillingCycle.utcDay(of: refreshedAt) != BillingCycle.utcDay(of: now)
    }

    /// Asks the API who the account is (one shared request), stores it with its name and
    /// picture, and returns its id.
    private func resolve() async throws -> UserID {
        if let lookup { return try await lookup.value.userID }
        let task = Task { [api, database, tokenKey, logger, clock, terms, gate] in
            if let gate, case .hold(let hold) = try await gate.admit(.account, perPost: terms.prices.userRead, posts: 1...1) {
                throw hold
            }
            let me: Author
            do {
                me = try await api.me()
            } catch let error as APIError {
                await gate?.release(.account)
                guard let refusal = error.refusal, let gate else { throw error }
                throw try await gate.refused(refusal, source: .account)
            } catch {
                await gate?.release(.account)
                throw error
            }
            // One user read (`GET /2/users/me`), charged to `account`.
            var bill = BillableAnswer(source: .account)
            bill.read(.userRead, [me.id.rawValue])
            let now = clock.now()
            let account = Account(userID: me.id, username: me.username, accessToken: tokenKey, refreshedAt: now)
            try await database.saveAccount(account, user: me, bill: bill, prices: terms.prices, now: now)
            await gate?.release(.account)
            try await gate?.answered(.account)
            logger.info("account.resolved", metadata: ["user_id": "\(me.id)", "username": "\(me.username)"])
            return account
        }
        lookup = task
        defer { lookup = nil }
        // Shutdown cancels the pollers waiting here; the request must stop with them.
        let account = try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
        cached = account
        retryAt = nil
        return account.userID
    }
}
