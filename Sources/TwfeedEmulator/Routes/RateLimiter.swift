import Foundation

/// What the `x-rate-limit-*` headers report for one request.
struct RateLimitStatus: Sendable {
    let limit: Int
    let remaining: Int
    /// Epoch seconds when the window ends (rounded up, so a client that sleeps until
    /// then is sure to find a fresh window).
    let reset: Int
    /// False when the request is over the limit.
    let allowed: Bool

    var headers: [(name: String, value: String)] {
        [
            ("x-rate-limit-limit", String(limit)),
            ("x-rate-limit-remaining", String(remaining)),
            ("x-rate-limit-reset", String(reset)),
        ]
    }
}

/// Fixed windows per endpoint, dialect and access token, as the real API keeps them
/// (user context limits are per user and endpoint). A window starts with the first
/// request after the previous one ended.
struct RateLimiter {
    /// The documented per-user limits per 15-minute window.
    static func defaultLimit(_ endpoint: EmulatorEndpoint, _ dialect: EmulatorDialect) -> Int {
        switch (dialect, endpoint) {
        case (.v2, .home): 180
        case (.v2, .mentions): 300
        case (.v2, .retweets): 75
        case (.v2, .post): 100
        case (.v2, .me): 75
        // The own-posts reads: 900 per 15 minutes per user, the figure the v2 docs gave
        // for `GET /2/users/:id/tweets` and v1.1's for `statuses/user_timeline` (x-api.md:
        // the per-user figure has changed over time; clients must read the headers).
        case (.v2, .ownPosts): 900
        // x-api.md: `GET /2/tweets?ids=` 5,000 per 15 minutes per user; `GET /2/tweets/:id`
        // shares the bucket here.
        case (.v2, .lookup): 5_000
        // x-api.md: `GET /2/users?ids=` 900 per 15 minutes per user.
        case (.v2, .users): 900
        // The v2 docs: `DELETE /2/tweets/:id` 50 per 15 minutes per user; v1.1's
        // `statuses/destroy` shares the figure here.
        case (_, .delete): 50
        // The media endpoints' per-user figure as the v1.1 upload documented it (v2's is
        // not published); v1.1 has no route to these buckets.
        case (_, .mediaUpload), (_, .mediaMetadata): 500
        case (.v1_1, .home): 15
        case (.v1_1, .mentions): 75
        case (.v1_1, .retweets): 75
        case (.v1_1, .post): 100
        case (.v1_1, .me): 75
        case (.v1_1, .ownPosts): 900
        case (.v1_1, .lookup): 900
        // v1.1 has no route to this bucket here (its `users/lookup` is not emulated).
        case (.v1_1, .users): 900
        }
    }

    private struct Key: Hashable {
        let endpoint: EmulatorEndpoint
        let dialect: EmulatorDialect
        let token: String
    }

    private struct Window {
        var used: Int
        var endsAt: TimeInterval
    }

    let windowSeconds: Double
    private var overrides: [String: Int] = [:]
    private var windows: [Key: Window] = [:]

    init(windowSeconds: Int) {
        self.windowSeconds = Double(max(1, windowSeconds))
    }

    /// Overrides a limit: `"home"` for both dialects, `"v2.home"` or `"v1.1.home"` for one.
    mutating func setLimit(_ limit: Int, for key: String) {
        overrides[key] = max(0, limit)
    }

    func limit(_ endpoint: EmulatorEndpoint, _ dialect: EmulatorDialect) -> Int {
        overrides["\(dialect.rawValue).\(endpoint.rawValue)"] ?? overrides[endpoint.rawValue]
            ?? Self.defaultLimit(endpoint, dialect)
    }

    /// Counts one request; `allowed` is false once the window's limit is used up.
    mutating func consume(_ endpoint: EmulatorEndpoint, _ dialect: EmulatorDialect, token: String, now: Date) -> RateLimitStatus {
        let key = Key(endpoint: endpoint, dialect: dialect, token: token)
        var window = current(key, now: now)
        let limit = limit(endpoint, dialect)
        let allowed = window.used < limit
        if allowed { window.used += 1 }
        windows[key] = window
        return RateLimitStatus(
            limit: limit,
            remaining: max(0, limit - window.used),
            reset: Int(window.endsAt.rounded(.up)),
            allowed: allowed
        )
    }

    /// The headers without counting a request (for answers refused before counting, e.g. a 401).
    /// With `exhausted`, reports nothing left (an injected 429).
    func peek(_ endpoint: EmulatorEndpoint, _ dialect: EmulatorDialect, token: String, now: Date, exhausted: Bool = false) -> RateLimitStatus {
        let window =
            windows[Key(endpoint: endpoint, dialect: dialect, token: token)]
            .flatMap { $0.endsAt > now.timeIntervalSince1970 ? $0 : nil }
            ?? Window(used: 0, endsAt: now.timeIntervalSince1970 + windowSeconds)
        let limit = limit(endpoint, dialect)
        return RateLimitStatus(
            limit: limit,
            remaining: exhausted ? 0 : max(0, limit - window.used),
            reset: Int(window.endsAt.rounded(.up)),
            allowed: !exhausted
        )
    }

    private func current(_ key: Key, now: Date) -> Window {
        if let window = windows[key], window.endsAt > now.timeIntervalSince1970 { return window }
        return Window(used: 0, endsAt: now.timeIntervalSince1970 + windowSeconds)
    }
}
