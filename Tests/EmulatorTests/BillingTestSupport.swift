import Foundation
import Testing
import TwfeedBase
import TwfeedEmulator

/// The published pay-per-use rates in micro-dollars, written out here rather than read
/// from the emulator, so a wrong default there fails these tests.
enum Rate {
    static let postRead = 5_000
    static let ownedRead = 1_000
    static let userRead = 10_000
    static let postCreate = 15_000
    static let postCreateWithURL = 200_000
    static let postCreateSummoned = 10_000
}

/// The day the billing tests live on: mid-day, so a test has twelve hours before the
/// emulator's clock reaches midnight, and in a cycle whose end is known.
let billingNoon = "2026-11-25T12:00:00Z"

/// The skew that puts the emulator's clock at `iso` (UTC) now.
func skew(to iso: String) -> Double {
    Timestamp.parseISO8601(iso)!.timeIntervalSince1970 - Date().timeIntervalSince1970
}

/// Moves the emulator's clock to `iso` (UTC), by its skew: tests never sleep.
func moveClock(_ emulator: Emulator, to iso: String) {
    emulator.setClockSkew(seconds: skew(to: iso))
}

/// An emulator whose clock reads `billingNoon`, with the OAuth timestamp check off (the
/// test signer stamps this machine's time, days away from the emulator's).
func withBillingEmulator<T>(_ configure: (inout EmulatorConfiguration) -> Void = { _ in },
                            _ body: (Emulator, TestClient) throws -> T) throws -> T {
    try withEmulator({ configuration in
        configuration.tweetsPerFeed = 80
        configuration.clockSkewSeconds = skew(to: billingNoon)
        configuration.timestampToleranceSeconds = 0
        configure(&configuration)
    }, body)
}

/// What a v2 answer returns, counted the way x-api.md bills it: posts in `data` and
/// `includes.tweets`, users in `includes.users` (distinct ids).
struct V2Resources {
    var data: [String] = []
    var includedPosts: [String] = []
    var users: [String] = []

    init(_ response: TestResponse) {
        let object = response.object
        if let array = object["data"] as? [[String: Any]] {
            data = array.compactMap { $0["id"] as? String }
        } else if let single = object["data"] as? [String: Any], let id = single["id"] as? String {
            data = [id]
        }
        includedPosts = (object[path: "includes", "tweets"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        users = (object[path: "includes", "users"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// Distinct posts read at the plain post price (when `data` is, too).
    var allPosts: Set<String> { Set(data).union(includedPosts) }
}

/// What a v1.1 answer returns: the statuses, the statuses embedded in them (any depth),
/// and the distinct users of every status object.
struct V11Resources {
    var statuses: [String] = []
    var embedded: Set<String> = []
    var users: Set<String> = []

    init(_ response: TestResponse) {
        let top: [[String: Any]] = (response.json as? [[String: Any]]) ?? (response.json as? [String: Any]).map { [$0] } ?? []
        for status in top {
            if let id = status["id_str"] as? String { statuses.append(id) }
            visit(status, depth: 0)
        }
    }

    private mutating func visit(_ status: [String: Any], depth: Int) {
        if depth > 0, let id = status["id_str"] as? String { embedded.insert(id) }
        if let user = status["user"] as? [String: Any], user["screen_name"] != nil, let id = user["id_str"] as? String {
            users.insert(id)
        }
        for key in ["retweeted_status", "quoted_status"] {
            if let inner = status[key] as? [String: Any] { visit(inner, depth: depth + 1) }
        }
    }

    var allPosts: Set<String> { Set(statuses).union(embedded) }
}

/// A `twfeed`-like v2 home page of `count` posts.
func v2HomePage(_ client: TestClient, count: Int = 20, extra: [(String, String)] = []) throws -> TestResponse {
    try client.get(homePath, [("max_results", String(count))] + clientFields + extra)
}

/// A v1.1 home page of `count` statuses.
func v11HomePage(_ client: TestClient, count: Int = 20, extra: [(String, String)] = []) throws -> TestResponse {
    try client.get("/1.1/statuses/home_timeline.json", [("count", String(count)), ("tweet_mode", "extended")] + extra)
}
