import Foundation

/// A failure the emulator can inject into the next matching requests, to test how a
/// client copes with what real APIs and networks do.
public enum Fault: Sendable, Equatable {
    /// An error status with the dialect's body (500 → v1.1 code 131, 503 → code 130;
    /// v2 a problem object). The request is not processed.
    case status(Int)
    /// The answer is delayed this long (the request is processed normally).
    case slow(seconds: Double)
    /// Headers with the full Content-Length, half the body, then a TCP reset.
    case resetMidBody
    /// A 200 that looks right but whose JSON body is cut short (Content-Length matches
    /// what is sent, so only a JSON parser notices).
    case truncatedJSON
    /// A 200 whose body is not JSON at all.
    case malformedJSON
    /// The dialect's 429 with `x-rate-limit-remaining: 0`, without using up the window.
    case rateLimited
    /// The dialect's 401, as for a bad signature.
    case authFailure
    /// The request is processed (a POST stores its status), then the connection is
    /// reset before any answer: the client cannot know it succeeded.
    case acceptThenReset
    /// The dialect's 429 with no `x-rate-limit-*` header at all (a proxy's or a degraded
    /// server's answer): a client must still wait, not retry at once.
    case rateLimitedWithoutHeaders
    /// The dialect's 429 whose `x-rate-limit-reset` is this many seconds before the
    /// server's clock (as when the local clock runs ahead of the server's).
    case rateLimitedWithPastReset(secondsAgo: Double)
    /// The answer's `x-rate-limit-*` header(s) say `value` verbatim (`inf`, `NaN`, `-5`,
    /// `1e19`, `99999999999999999999`, empty…). With `rateLimited`, the answer is the
    /// dialect's 429 (the request is not processed); without, the request is processed
    /// normally (a 200) and only the header is spoiled.
    case badRateLimitHeader(value: String, header: RateLimitHeader = .reset, rateLimited: Bool)
    /// The pay-per-use API's 402 `CreditsDepleted`: the body the billing side answers when
    /// the prepaid balance is at 0 (the request is not processed), worded as `shape` says
    /// (each billing refusal takes one: a v2 problem, v1.1's errors list, nothing, HTML).
    case creditsDepleted(EmulatorRefusalShape = .dialect)
    /// The pay-per-use API's 403 `SpendCapReached`, with `reset_date` the next UTC day on
    /// the server's clock (a console's cap lifts at the next cycle; a test would wait
    /// weeks for that).
    case spendCapReached(EmulatorRefusalShape = .dialect)
    /// The pay-per-use API's 429 `UsageCapExceeded`, with the healthy rate-limit headers
    /// the monthly cap comes with.
    case usageCapExceeded(EmulatorRefusalShape = .dialect)
    /// The endpoint outside the account's access: v2's 403 problem for the refusal, v1.1's
    /// 403 code 453.
    case notEnrolled(EmulatorRefusal, shape: EmulatorRefusalShape = .dialect)

    /// The shape of a billing refusal's body; nil for the other faults.
    public var refusalShape: EmulatorRefusalShape? {
        switch self {
        case .creditsDepleted(let shape), .spendCapReached(let shape), .usageCapExceeded(let shape), .notEnrolled(_, let shape):
            shape
        default: nil
        }
    }

    /// The name used by `POST /_emulator/faults` and in request records.
    public var controlName: String {
        switch self {
        case .status(let code): String(code)
        case .slow: "slow"
        case .resetMidBody: "reset"
        case .truncatedJSON: "truncated"
        case .malformedJSON: "malformed"
        case .rateLimited: "429"
        case .authFailure: "auth"
        case .acceptThenReset: "accept-then-reset"
        case .rateLimitedWithoutHeaders: "429-no-headers"
        case .rateLimitedWithPastReset: "429-past-reset"
        case .badRateLimitHeader(_, _, let rateLimited): rateLimited ? "429-bad-header" : "bad-header"
        case .creditsDepleted: "credits-depleted"
        case .spendCapReached: "spend-cap-reached"
        case .usageCapExceeded: "usage-cap-exceeded"
        case .notEnrolled: "not-enrolled"
        }
    }

    /// Parses a control-route name: "503", "500" (any status), "slow" (with `seconds`,
    /// default 5), "reset", "truncated", "malformed", "429", "auth", "accept-then-reset",
    /// "429-no-headers", "429-past-reset" (`seconds` ago, default 60), "bad-header" and
    /// "429-bad-header" (with `value`, default "inf", and `header`: limit, remaining,
    /// reset (the default) or all), "credits-depleted", "spend-cap-reached",
    /// "usage-cap-exceeded" and "not-enrolled" (with `value`, an `EmulatorRefusal`,
    /// default "client-not-enrolled"); the last four with `shape`, an
    /// `EmulatorRefusalShape` (default "dialect").
    public init?(
        controlName: String,
        seconds: Double? = nil,
        value: String? = nil,
        header: String? = nil,
        shape shapeName: String? = nil
    ) {
        guard let shape = EmulatorRefusalShape(rawValue: shapeName ?? EmulatorRefusalShape.dialect.rawValue) else { return nil }
        switch controlName.lowercased() {
        case "429-no-headers": self = .rateLimitedWithoutHeaders
        case "429-past-reset":
            let ago = seconds ?? 60
            guard ago.isFinite, ago > 0 else { return nil }
            self = .rateLimitedWithPastReset(secondsAgo: ago)
        case "bad-header", "429-bad-header":
            guard let which = RateLimitHeader(rawValue: header ?? "reset") else { return nil }
            self = .badRateLimitHeader(value: value ?? "inf", header: which, rateLimited: controlName.hasPrefix("429"))
        case "429", "ratelimited", "rate-limited": self = .rateLimited
        case "slow": self = .slow(seconds: seconds ?? 5)
        case "reset", "reset-mid-body": self = .resetMidBody
        case "truncated", "truncated-json": self = .truncatedJSON
        case "malformed", "malformed-json": self = .malformedJSON
        case "auth", "401", "auth-failure": self = .authFailure
        case "accept-then-reset": self = .acceptThenReset
        case "credits-depleted": self = .creditsDepleted(shape)
        case "spend-cap-reached": self = .spendCapReached(shape)
        case "usage-cap-exceeded": self = .usageCapExceeded(shape)
        case "not-enrolled":
            guard let refusal = EmulatorRefusal(rawValue: value ?? EmulatorRefusal.clientNotEnrolled.rawValue) else { return nil }
            self = .notEnrolled(refusal, shape: shape)
        default:
            guard let code = Int(controlName), (400...599).contains(code) else { return nil }
            self = .status(code)
        }
    }
}

/// Which `x-rate-limit-*` header a `Fault.badRateLimitHeader` spoils.
public enum RateLimitHeader: String, Sendable, CaseIterable {
    case limit, remaining, reset, all

    var headerNames: [String] {
        switch self {
        case .limit: ["x-rate-limit-limit"]
        case .remaining: ["x-rate-limit-remaining"]
        case .reset: ["x-rate-limit-reset"]
        case .all: ["x-rate-limit-limit", "x-rate-limit-remaining", "x-rate-limit-reset"]
        }
    }
}

/// Faults waiting for requests, first injected first used.
struct FaultQueue {
    private struct Entry {
        let fault: Fault
        var remaining: Int
        let pathContains: String?
        /// Only requests of this method (`POST /2/tweets` is a post, `GET /2/tweets` a lookup).
        let method: String?
        /// Only requests to this endpoint, in either dialect (`mediaUpload`, `delete`, …).
        let endpoint: EmulatorEndpoint?
    }

    private var entries: [Entry] = []

    mutating func add(_ fault: Fault, times: Int, pathContains: String?, method: String? = nil, endpoint: EmulatorEndpoint? = nil) {
        guard times > 0 else { return }
        entries.append(
            Entry(
                fault: fault,
                remaining: times,
                pathContains: pathContains.flatMap { $0.isEmpty ? nil : $0 },
                method: method?.uppercased(),
                endpoint: endpoint
            )
        )
    }

    mutating func removeAll() { entries.removeAll() }

    var pending: Int { entries.reduce(0) { $0 + $1.remaining } }

    /// Takes the first fault matching `path`. A fault without a path only hits API
    /// requests (`/2/`, `/1.1/`, `/oauth/`); one with a path hits any request whose path
    /// contains it, profile images included; one with an endpoint only requests to it.
    mutating func take(path: String, method: String, isAPI: Bool, endpoint: EmulatorEndpoint? = nil) -> Fault? {
        guard
            let index = entries.firstIndex(where: { entry in
                (entry.pathContains.map { path.contains($0) } ?? isAPI) && (entry.method.map { $0 == method.uppercased() } ?? true)
                    && (entry.endpoint.map { $0 == endpoint } ?? true)
            })
        else { return nil }
        let fault = entries[index].fault
        entries[index].remaining -= 1
        if entries[index].remaining == 0 { entries.remove(at: index) }
        return fault
    }
}
