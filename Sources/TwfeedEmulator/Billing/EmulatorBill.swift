/// What the emulated pay-per-use API has charged, as `Emulator.bill()` and
/// `GET /_emulator/bill` report it: the server's side of the ledger, to hold twfeed's own
/// against. Money is in whole micro-dollars (`…Micros`) with dollars beside it (`…USD`,
/// rounded to 6 decimals).
public struct EmulatorBill: Sendable, Equatable {
    /// Charges added up over some requests.
    public struct Tally: Sendable, Equatable {
        /// Resources charged, by kind (a resource returned again the same UTC day is not).
        public internal(set) var counts: [EmulatorResourceKind: Int] = [:]
        /// Micro-dollars charged, by kind (prices may change between requests).
        public internal(set) var microsByKind: [EmulatorResourceKind: Int] = [:]
        /// Resources returned again the same UTC day, so not charged.
        public internal(set) var deduplicated = 0
        /// Successful API answers (2xx) looked at, charged or free.
        public internal(set) var requests = 0

        public init() {}

        public var micros: Int { microsByKind.values.reduce(0, +) }
        public var usd: Double { MicroDollars.usd(micros) }
        public func count(_ kind: EmulatorResourceKind) -> Int { counts[kind] ?? 0 }
        public func micros(_ kind: EmulatorResourceKind) -> Int { microsByKind[kind] ?? 0 }
        public func usd(_ kind: EmulatorResourceKind) -> Double { MicroDollars.usd(micros(kind)) }
        /// Post reads (plain and owned): what the monthly usage cap counts.
        public var postReads: Int { count(.postRead) + count(.ownedRead) }

        mutating func add(_ kind: EmulatorResourceKind, micros: Int) {
            counts[kind, default: 0] += 1
            microsByKind[kind, default: 0] += micros
        }

        mutating func merge(_ other: Tally) {
            for (kind, count) in other.counts { counts[kind, default: 0] += count }
            for (kind, micros) in other.microsByKind { microsByKind[kind, default: 0] += micros }
            deduplicated += other.deduplicated
            requests += other.requests
        }
    }

    /// One UTC calendar day's charges.
    public struct Day: Sendable, Equatable {
        /// `2026-11-25`, on the emulator's clock.
        public let day: String
        public let tally: Tally
    }

    /// Everything since the start (or the last `resetBill()`).
    public let total: Tally
    /// The current billing cycle's charges (what the spend cap and usage cap count).
    public let cycle: Tally
    /// The current cycle's first day and the next cycle's, `YYYY-MM-DD`.
    public let cycleStart: String
    public let nextCycleStart: String
    /// The prepaid balance left; nil when unlimited.
    public let creditsMicros: Int?
    /// Days with requests, newest first.
    public let days: [Day]
    /// Charges by endpoint (`home`, `mentions`, … as in rate limits).
    public let byEndpoint: [EmulatorEndpoint: Tally]

    public var totalMicros: Int { total.micros }
    public var totalUSD: Double { total.usd }
    public var cycleMicros: Int { cycle.micros }
    public var cycleUSD: Double { cycle.usd }
    public var creditsUSD: Double? { creditsMicros.map(MicroDollars.usd) }

    /// The tally of one day (`YYYY-MM-DD`), or an empty one.
    public func day(_ label: String) -> Tally {
        days.first { $0.day == label }?.tally ?? Tally()
    }

    /// The tally of one endpoint, or an empty one.
    public func endpoint(_ endpoint: EmulatorEndpoint) -> Tally {
        byEndpoint[endpoint] ?? Tally()
    }
}
