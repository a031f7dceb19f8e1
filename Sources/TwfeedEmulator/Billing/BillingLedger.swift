/// The emulated pay-per-use account: its settings (prices, credits, caps, refusals) and
/// the server's tally of what it charged. Kept in `EmulatorState`, behind the state's one
/// lock, so a charge and the answer it belongs to are one step.
///
/// Charging costs O(resources in the answer): one set insertion per resource for the
/// UTC-day deduplication (only the current day's set is kept) and a fixed number of
/// additions to the running tallies.
struct BillingLedger {
    /// One resource charged on a day: a post or a user by its id, whatever it cost (a
    /// post read in home and then as an owned read in mentions costs the first price
    /// once), unless `dedupAcrossPrices` is off.
    private struct Seen: Hashable {
        let resource: String
        let id: UInt64
    }

    /// The reading of X's pricing page ("deduplicated per resource, across queries")
    /// this bill follows: true, one charge per post or user a UTC day, at the price of
    /// the day's first read; false, once a day per price line. twfeed's ledger has the
    /// same switch (`BillableKind.dedupAcrossPrices`): change both together.
    static let dedupAcrossPrices = true

    private static func resource(_ kind: EmulatorResourceKind) -> String {
        guard dedupAcrossPrices else { return kind.rawValue }
        return kind == .userRead ? "user" : "post"
    }

    /// The enrolled account named in the refusals' details.
    static let enrolledAccountID = TweetStore.accountID

    var prices: EmulatorPrices
    var ownsApp: Bool
    /// The prepaid balance; nil is unlimited.
    var creditsMicros: Int?
    var spendCapMicros: Int?
    var usageCapPostReads: Int?
    private(set) var cycleStartDay: Int
    var refusals: [EmulatorEndpoint: EmulatorRefusal]
    var repliesRequireSummons: Bool
    /// How its refusals are worded.
    var refusalShape: EmulatorRefusalShape

    private(set) var total = EmulatorBill.Tally()
    private var days: [Int: EmulatorBill.Tally] = [:]
    private var byEndpoint: [EmulatorEndpoint: EmulatorBill.Tally] = [:]
    private var cycle = EmulatorBill.Tally()
    /// The current cycle as days since 1970 (`start..<end`); nil until the first look.
    private var cycleBounds: (start: Int, end: Int)?
    /// Resources charged per UTC day; days before the current one are dropped.
    private var seen: [Int: Set<Seen>] = [:]

    init(_ configuration: EmulatorBillingConfiguration) {
        prices = configuration.prices
        ownsApp = configuration.ownsApp
        creditsMicros = configuration.creditsUSD.map { MicroDollars.from(usd: $0) ?? 0 }
        spendCapMicros = configuration.spendCapUSD.map { MicroDollars.from(usd: $0) ?? 0 }
        usageCapPostReads = configuration.usageCapPostReads.map { max(0, $0) }
        cycleStartDay = Self.clampedStartDay(configuration.cycleStartDay)
        refusals = configuration.notEnrolled
        repliesRequireSummons = configuration.repliesRequireSummons
        refusalShape = configuration.refusalShape
    }

    static func clampedStartDay(_ day: Int) -> Int { min(max(day, 1), 28) }

    // MARK: Days and cycles

    /// Moves the ledger to `day` (UTC, on the emulator's clock): a day outside the
    /// current cycle starts a new one with nothing spent, and the deduplication sets of
    /// earlier days go.
    mutating func enter(day: Int) {
        if let bounds = cycleBounds, bounds.start <= day, day < bounds.end {
            // Still the same cycle.
        } else {
            cycleBounds = BillingCalendar.cycle(containing: day, startDay: cycleStartDay)
            cycle = EmulatorBill.Tally()
        }
        if seen.keys.contains(where: { $0 < day }) {
            seen = seen.filter { $0.key >= day }
        }
    }

    /// Cycles start on `startDay` (clamped to 1-28) from now on; the current cycle is
    /// recomputed around `today` and starts with nothing spent.
    mutating func setCycleStartDay(_ startDay: Int, today: Int) {
        cycleStartDay = Self.clampedStartDay(startDay)
        cycleBounds = nil
        enter(day: today)
    }

    // MARK: Refusing

    /// Why a request to `endpoint` is refused before it is served, in the order the
    /// checks apply: access, then money, then the usage cap (which stops reads only).
    /// Call `enter(day:)` first.
    func refusal(for endpoint: EmulatorEndpoint) -> BillingRefusal? {
        if let refusal = refusals[endpoint] { return .notEnrolled(refusal) }
        if let creditsMicros, creditsMicros <= 0 { return .creditsDepleted }
        if let spendCapMicros, cycle.micros >= spendCapMicros, let bounds = cycleBounds {
            return .spendCapReached(resetDate: BillingCalendar.label(bounds.end))
        }
        if endpoint.readsPosts, let usageCapPostReads, cycle.postReads >= usageCapPostReads {
            return .usageCapExceeded
        }
        return nil
    }

    // MARK: Charging

    /// Charges one successful answer to `endpoint` on `day`: each post and user it
    /// returned that was not charged earlier that UTC day (by any endpoint, at any price;
    /// in this answer its own posts come before what they include), and the post it
    /// created, deleted or the photo it uploaded (never deduplicated). Deducts the charge from the credits, which
    /// may take them below zero once.
    mutating func charge(_ served: ServedResources, endpoint: EmulatorEndpoint, day: Int) {
        enter(day: day)
        var charge = EmulatorBill.Tally()
        charge.requests = 1
        // Taken out of the dictionary so the insertions do not copy the set.
        var today = seen.removeValue(forKey: day) ?? []
        let prices = prices
        func read(_ kind: EmulatorResourceKind, _ id: UInt64) {
            if today.insert(Seen(resource: Self.resource(kind), id: id)).inserted {
                charge.add(kind, micros: prices.micros(kind))
            } else {
                charge.deduplicated += 1
            }
        }
        let postKind: EmulatorResourceKind = served.ownedTimeline && ownsApp ? .ownedRead : .postRead
        for id in served.posts { read(postKind, id) }
        for id in served.includedPosts { read(.postRead, id) }
        for id in served.users { read(.userRead, id) }
        seen[day] = today
        for write in [served.created, served.performed].compactMap({ $0 }) { charge.add(write, micros: prices.micros(write)) }

        total.merge(charge)
        cycle.merge(charge)
        days[day, default: EmulatorBill.Tally()].merge(charge)
        byEndpoint[endpoint, default: EmulatorBill.Tally()].merge(charge)
        if let credits = creditsMicros { creditsMicros = credits - charge.micros }
    }

    /// Forgets every charge (the settings and the credits stay).
    mutating func resetTally() {
        total = EmulatorBill.Tally()
        cycle = EmulatorBill.Tally()
        days = [:]
        byEndpoint = [:]
        seen = [:]
    }

    // MARK: Reporting

    /// The bill as of `today` (which also moves the ledger there, as a request would).
    mutating func bill(today: Int) -> EmulatorBill {
        enter(day: today)
        let bounds = cycleBounds ?? BillingCalendar.cycle(containing: today, startDay: cycleStartDay)
        return EmulatorBill(
            total: total,
            cycle: cycle,
            cycleStart: BillingCalendar.label(bounds.start),
            nextCycleStart: BillingCalendar.label(bounds.end),
            creditsMicros: creditsMicros,
            days: days.sorted { $0.key > $1.key }.map { EmulatorBill.Day(day: BillingCalendar.label($0.key), tally: $0.value) },
            byEndpoint: byEndpoint
        )
    }
}
