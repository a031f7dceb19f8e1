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
    /// `host:port` used in OAuth base strings when a request has no Host header.
    var authority = "127.0.0.1"

    /// Request records kept (oldest dropped first), so a long demo cannot grow without bound.
    static let maxRecords = 100_000

    mutating func record(_ request: HTTPRequest, route: Route, status: Int, fault: Fault?, now: Date) {
        if records.count >= Self.maxRecords { records.removeFirst(Self.maxRecords / 10) }
        records.append(EmulatorRequestRecord(
            method: request.method, path: request.path, query: request.rawQuery, status: status,
            endpoint: route.endpointName, dialect: route.isAPI && route.endpointName != "unknown" ? route.dialect : nil,
            fault: fault?.controlName, date: now))
    }
}

/// What a route handler gets about its request.
struct RequestContext {
    let request: HTTPRequest
    let now: Date
    /// `http://` + the Host the client used: where profile image URLs point, so they work
    /// whether the client says 127.0.0.1, localhost or ::1.
    let imageBase: String
    /// The verified access token (rate limits are per token).
    let token: String

    /// Query parameters followed by form body parameters.
    var parameters: [(name: String, value: String)] { request.queryItems + request.formItems }

    func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
}

/// v2's `pagination_token`: opaque to clients (they must only hand it back). It carries
/// the exclusive upper bound of the next page, with a check character so that a made-up
/// token is refused rather than silently misread.
enum PaginationToken {
    private static let mask: UInt64 = 0x5DEE_CE66_D1CE_F00D
    private static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz")

    static func encode(_ bound: UInt64) -> String {
        let body = String(bound ^ mask, radix: 36)
        return body + String(digits[check(body)])
    }

    static func decode(_ token: String) -> UInt64? {
        guard token.count >= 2, let last = token.last else { return nil }
        let body = String(token.dropLast())
        guard String(digits[check(body)]) == String(last), let value = UInt64(body, radix: 36) else { return nil }
        return value ^ mask
    }

    private static func check(_ body: String) -> Int {
        body.unicodeScalars.reduce(7) { ($0 * 31 + Int($1.value)) % 36 }
    }
}
