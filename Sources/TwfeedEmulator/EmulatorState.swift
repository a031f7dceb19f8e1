import Foundation

/// Everything mutable about a running emulator, kept together behind one lock
/// (`EmulatorCore.state`): requests are short, and one lock makes every answer see a
/// consistent network (a posted status is in home before the 201 goes out).
struct EmulatorState {
    var store: TweetStore
    var faults = FaultQueue()
    var limiter: RateLimiter
    var nonces = NonceCache()
    var tokens: TokenRegistry
    var records: [EmulatorRequestRecord] = []
    var posted: [PostedStatus] = []
    /// Photos uploaded (`POST /2/media/upload`), with their bytes and alt text.
    var uploads = MediaUploads()
    /// Posts deleted through the API (`DELETE /2/tweets/:id`, `statuses/destroy`), in order.
    var deletions: [PostDeletion] = []
    /// Users v2 lookups by id leave out of `includes.users` (`Emulator.leaveUserOutOfLookups`).
    var usersLeftOutOfLookups: Set<UInt64> = []
    /// `EmulatorConfiguration.goneDeletion`.
    var goneDeletion: EmulatorGoneDeletion = .notDeleted
    /// `host:port` used in OAuth base strings when a request has no Host header.
    var authority = "127.0.0.1"
    /// The emulator's clock is this machine's plus this (`EmulatorConfiguration.clockSkewSeconds`).
    var clockSkewSeconds: Double = 0
    /// `EmulatorConfiguration.clock`: this machine's time, before the skew.
    var clock: @Sendable () -> Date = { Date() }
    /// `EmulatorConfiguration.duplicateWindowSeconds`; 0 = no duplicate check.
    var duplicateWindowSeconds: Double = 86_400
    /// `EmulatorConfiguration.vocabulary`: the names v2 answers use.
    var vocabulary: EmulatorVocabulary = .tweet
    /// Whether the account may post over 280 (weighted), up to 25,000: X Premium.
    var longPostsAllowed = false
    /// `Emulator.dropKeptAliveConnections`: requests left to drop, and after how many
    /// requests on one connection.
    var keepAliveDrops = 0
    var keepAliveDropAfter = 1
    /// The pay-per-use account: prices, credits, caps, refusals, and what was charged.
    var billing = BillingLedger(EmulatorBillingConfiguration())

    /// Leaves the user out of v2 lookups' `includes.users` (`leaveOut`), or no longer.
    /// False for an unknown user.
    mutating func leaveOutOfLookups(_ id: UInt64, _ leaveOut: Bool) -> Bool {
        guard store.user(id) != nil else { return false }
        if leaveOut { usersLeftOutOfLookups.insert(id) } else { usersLeftOutOfLookups.remove(id) }
        return true
    }

    /// The emulator's clock: what the server believes the time is.
    var now: Date { clock().addingTimeInterval(clockSkewSeconds) }

    /// A finite value, or 0 (a setting must never make the clock or a window infinite).
    static func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }

    /// A clock skew within ±10⁹ s (about 31 years), so every date stays printable.
    static func skew(_ value: Double) -> Double { min(max(finite(value), -1e9), 1e9) }

    /// Request records kept (oldest dropped first), so a long demo cannot grow without bound.
    static let maxRecords = 100_000

    mutating func record(_ request: EmulatorRequest, route: Route, status: Int, fault: String?, now: Date) {
        if records.count >= Self.maxRecords { records.removeFirst(Self.maxRecords / 10) }
        records.append(
            EmulatorRequestRecord(
                method: request.method,
                path: request.path,
                query: request.rawQuery,
                status: status,
                endpoint: route.endpointName,
                dialect: route.rateLimited == nil ? nil : route.dialect,
                fault: fault,
                date: now,
                nonce: request.header("authorization").flatMap(OAuthHeader.init)?["oauth_nonce"],
                connectionRequestNumber: request.connectionRequestNumber
            )
        )
    }
}
