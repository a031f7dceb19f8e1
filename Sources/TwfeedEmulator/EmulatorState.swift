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
            endpoint: route.endpointName, dialect: route.rateLimited == nil ? nil : route.dialect,
            fault: fault?.controlName, date: now))
    }
}

