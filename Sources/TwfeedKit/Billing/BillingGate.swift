import Foundation
import Logging
import TwfeedBase
import TwfeedBilling
import TwfeedCore
import TwfeedStore

/// The one place every billable request asks before it goes out, and tells afterwards
/// how the API answered.
///
/// It keeps the account's billing state (`BillingStatus`, stored so a restart remembers
/// it), the endpoints the API refuses (`EndpointRefusal`) and the budget. A state
/// that stops requests lets one probe through at a time (`BillingStateMachine`); the
/// budget gives each source what is left of today's allowance after what the sources
/// before it in `BillingSource.budgetPriority` are expected to need. Each change of state
/// is logged once, on entering and on leaving, never per request.
///
/// An actor: the pollers and the outbox ask concurrently, and two of them must not both
/// take the one probe.
package actor BillingGate {
    /// Why a request may not go out yet, and until when.
    package struct Hold: Error, Sendable, Equatable, CustomStringConvertible {
        package var until: Date
        package var reason: Reason
        /// The API's words when it refused; nil when twfeed holds back by itself.
        package var detail: String? = nil

        package var description: String {
            let why: String
            switch reason {
            case .billing(let state): why = state.rawValue
            case .notPermitted(let reason): why = "not permitted (\(reason.rawValue))"
            case .budget: why = "budget"
            }
            return "held (\(why)) until \(Timestamp.iso8601(until))" + (detail.map { ": \($0)" } ?? "")
        }

        package enum Reason: Sendable, Equatable {
            /// The account's billing state stops it (`out_of_credits`, `spend_cap`, `usage_cap`).
            case billing(BillingState)
            /// The API refuses this endpoint to the account.
            case notPermitted(NotPermittedReason)
            /// Today's share of the budget does not cover it.
            case budget
        }
    }

    /// What a request may do.
    package enum Answer: Sendable, Equatable {
        /// Go, asking for at most `maxPosts` posts (nil: as many as a page holds).
        case go(maxPosts: Int?)
        case hold(Hold)
    }

    let database: AppDatabase
    let machine: BillingStateMachine
    let budget: MicroUSD?
    let cycle: BillingCycle
    let terms: BillingTerms
    let clock: any WallClock
    let logger: Logger
    /// The read sources that run (enabled feeds): one of them probes before the outbox.
    let readers: Set<BillingSource>
    /// Called when a state that stopped posts ends: rings the outbox.
    let onRecovered: @Sendable () -> Void

    private var loaded = false
    private var status: BillingStatus
    private var refusals: [BillingSource: EndpointRefusal] = [:]
    /// The worst case of each source's request admitted and not yet recorded in the
    /// ledger. A source's requests go one after another, so each holds at most one; it
    /// is released when the next is admitted (the previous answer is stored by then) or
    /// when the source is done (`release`). Without it, two feeds admitted at once would
    /// each see the whole of what is left.
    private var reserved: [BillingSource: MicroUSD] = [:]
    /// How many refusal states this gate has entered, and the count each source's latest
    /// request was admitted under. A request admitted before the latest refusal state
    /// began was on its way when the API started refusing (another source's request, sent
    /// concurrently), so its success says nothing about whether that state is over: only
    /// a request admitted since (the state's probe) may end it.
    private var refusalsEntered = 0
    private var admittedUnder: [BillingSource: Int] = [:]

    /// How long the outbox leaves a due probe to a feed: a feed's since_id read with
    /// nothing new costs nothing, a post costs at least $0.015.
    static let probeGrace: TimeInterval = 60

    package init(
        database: AppDatabase,
        config: TwfeedConfig.API,
        clock: any WallClock,
        logger: Logger,
        readers: Set<BillingSource> = [],
        onRecovered: @escaping @Sendable () -> Void = {}
    ) {
        self.database = database
        cycle = config.budget.cycle
        machine = BillingStateMachine(recheck: Double(config.creditsRecheckMinutes) * 60, cycle: cycle)
        budget = config.budget.monthlyUSD
        terms = BillingTerms(config)
        self.clock = clock
        self.logger = logger
        self.readers = readers
        self.onRecovered = onRecovered
        status = .ok(since: clock.now())
    }

    /// The current billing status (read from the store on first use).
    package func current() async throws -> BillingStatus {
        try await load()
        return status
    }

    /// Asks whether a request of `source` may go out now: a read of between `posts`'
    /// bounds posts at most `perPost` each, or a post (`source` `.outbox`, one "post" at
    /// its price). `within`: a spend the user allowed for this request's purpose
    /// (`twfeed fill --max-usd`), which replaces today's allowance but never passes what
    /// is left of the cycle's budget. `history`: a read of older posts (a first
    /// backfill's gap read on), which leaves `source`'s own expected need for the rest of
    /// today to its new posts, as it leaves the feeds ahead theirs.
    package func admit(
        _ source: BillingSource,
        perPost: MicroUSD,
        posts: ClosedRange<Int>,
        within: MicroUSD? = nil,
        history: Bool = false
    ) async throws -> Answer {
        try await load()
        let now = clock.now()
        admittedUnder[source] = refusalsEntered
        if var refusal = refusals[source] {
            // Times round-trip through SQLite as doubles: allow for the last bit.
            if refusal.recheckAt.timeIntervalSince(now) > 0.001 {
                return .hold(Hold(until: refusal.recheckAt, reason: .notPermitted(refusal.reason), detail: refusal.detail))
            }
            // The day's recheck: this request asks; no other goes until it is answered.
            refusal.recheckAt = now.addingTimeInterval(EndpointRefusal.recheckInterval)
            refusals[source] = refusal
            try await database.saveEndpointRefusal(refusal)
        }
        switch machine.decide(source.action, in: status, now: now) {
        case .allow:
            break
        case .wait(let until):
            return .hold(Hold(until: until, reason: .billing(status.state), detail: status.detail))
        case .probe:
            // A feed's since_id read is the cheapest probe there is (free when nothing is
            // new); the outbox and the fetcher's lookups (up to 100 paid posts) leave it to
            // one for a minute, then probe themselves.
            if source == .outbox || source == .lookups, hasActiveReaders(now: now),
                now < (machine.nextProbe(in: status) ?? now) + Self.probeGrace
            {
                return .hold(Hold(until: (machine.nextProbe(in: status) ?? now) + Self.probeGrace, reason: .billing(status.state)))
            }
            status = machine.probed(status, at: now)
            try await database.saveBillingStatus(status)
            logger.debug("billing.probe", metadata: ["source": "\(source.rawValue)", "state": "\(status.state.rawValue)"])
        }
        return try await budgetAnswer(source, perPost: perPost, posts: posts, within: within, history: history, now: now)
    }

    /// The API answered a request of `source` with success: a state that stopped it is
    /// over, and an endpoint it refused is permitted again.
    package func answered(_ source: BillingSource) async throws {
        try await load()
        let now = clock.now()
        if let refusal = refusals.removeValue(forKey: source) {
            try await database.clearEndpointRefusal(source)
            logger.notice(
                "feed.permitted",
                metadata: ["feed": "\(source.rawValue)", "was": "\(refusal.reason.rawValue)"]
            )
        }
        // Sent before the state began: not a sign that it is over (see `admittedUnder`).
        if let admitted = admittedUnder[source], admitted != refusalsEntered { return }
        try await move(to: machine.succeeded(source.action, in: status, at: now), reason: "answered", now: now)
    }

    /// The API refused a request of `source` for money or entitlement: returns what the
    /// request (and those like it) must wait for.
    package func refused(_ refusal: BillingRefusal, source: BillingSource) async throws -> Hold {
        try await load()
        let now = clock.now()
        if case .notPermitted(let why, let detail) = refusal {
            let recheck = now.addingTimeInterval(EndpointRefusal.recheckInterval)
            let entering = refusals[source] == nil
            let stored = EndpointRefusal(
                source: source,
                reason: why,
                detail: detail,
                since: refusals[source]?.since ?? now,
                recheckAt: recheck
            )
            refusals[source] = stored
            try await database.saveEndpointRefusal(stored)
            if entering {
                logger.error(
                    "feed.not_permitted",
                    metadata: [
                        "feed": "\(source.rawValue)", "reason": "\(why.rawValue)", "detail": "\(detail)",
                        "hint": "\(why.advice)", "recheck": "\(Timestamp.iso8601(recheck))",
                    ]
                )
            }
            return Hold(until: recheck, reason: .notPermitted(why), detail: detail)
        }
        let next = machine.refused(refusal, in: status, at: now)
        try await move(to: next, reason: refusal.reason, now: now)
        let until = machine.nextProbe(in: status) ?? now.addingTimeInterval(machine.recheck)
        return Hold(until: until, reason: .billing(status.state), detail: refusal.detail)
    }

    /// What `source`'s request in flight was admitted at (its worst case), until its
    /// answer is in the ledger: all that the reads stored with that answer (the authors
    /// it left out, `AuthorLookup`) may spend with it. Nil when no budget bounds it.
    package func admitted(_ source: BillingSource) -> MicroUSD? {
        reserved[source]
    }

    /// The source's last request is recorded in the ledger (or never went out).
    package func release(_ source: BillingSource) {
        reserved[source] = nil
    }

    /// A reload: every refused endpoint is asked again at once.
    package func recheckRefusals() async throws {
        try await load()
        let now = clock.now()
        for source in refusals.keys { refusals[source]?.recheckAt = now }
        try await database.recheckEndpointRefusals(at: now)
    }

    // MARK: -

    private func load() async throws {
        guard !loaded else { return }
        if let stored = try await database.billingStatus() { status = stored }
        for refusal in try await database.endpointRefusals() { refusals[refusal.source] = refusal }
        loaded = true
    }

    private func hasActiveReaders(now: Date) -> Bool {
        readers.contains { refusals[$0] == nil }
    }

    /// Moves to `next`, storing it and logging the change once.
    private func move(to next: BillingStatus, reason: String, now: Date) async throws {
        let previous = status
        guard next != previous else { return }
        if !next.state.isHealthy, next.state != previous.state { refusalsEntered += 1 }
        status = next
        try await database.saveBillingStatus(next)
        guard next.state != previous.state else { return }
        var metadata: Logger.Metadata = [
            "state": "\(next.state.rawValue)", "previous": "\(previous.state.rawValue)", "reason": "\(reason)",
            "until": "\(next.until.map(Timestamp.iso8601) ?? "none")",
        ]
        if let detail = next.detail { metadata["detail"] = "\(detail)" }
        if next.state.isHealthy {
            logger.notice("billing.state", metadata: metadata)
        } else {
            metadata["hint"] = "\(next.state.advice)"
            logger.error("billing.state", metadata: metadata)
        }
        if !previous.state.isHealthy, next.state.isHealthy { onRecovered() }
    }

    /// The budget's answer for a request that the billing state lets through.
    private func budgetAnswer(
        _ source: BillingSource,
        perPost: MicroUSD,
        posts: ClosedRange<Int>,
        within: MicroUSD?,
        history: Bool,
        now: Date
    ) async throws -> Answer {
        reserved[source] = nil
        if budget == nil, within == nil { return .go(maxPosts: nil) }
        let today = CivilDate(now)
        let interval = cycle.cycle(containing: now)
        let cycleStart = BillingCycle.utcDay(of: interval.start)
        let spentBefore = try await database.spent(from: cycleStart, before: today.description)
        let spentToday = try await database.spent(from: today.description, before: today.adding(days: 1).description)
        let plan = BudgetPlan(
            monthlyBudget: budget,
            cycle: cycle,
            spentBeforeToday: spentBefore,
            spentToday: spentToday,
            now: now
        )
        let inFlight = reserved.values.reduce(MicroUSD.zero, +)
        let left: MicroUSD
        if let within {
            left = (min(within, plan.leftInCycle ?? within) - inFlight).clampedToZero
        } else {
            let reserve = try await reserve(before: source, itself: history, now: now, leftToday: plan.leftToday ?? .zero)
            left = ((plan.leftToday ?? .zero) - reserve - inFlight).clampedToZero
        }
        let affordable = perPost.micros > 0 ? Int(min(left.micros / perPost.micros, Int64(Int.max / 2))) : posts.upperBound
        let granted = min(affordable, posts.upperBound)
        if within != nil {
            guard affordable >= posts.lowerBound else { return .hold(Hold(until: now, reason: .budget)) }
            reserved[source] = perPost * granted
            return .go(maxPosts: affordable >= posts.upperBound ? nil : affordable)
        }
        if affordable >= posts.lowerBound {
            reserved[source] = perPost * granted
            if status.state == .budgetLimited, let until = status.until, now >= until {
                try await move(to: machine.budget(limited: false, in: status, at: now), reason: "allowance-renewed", now: now)
            }
            return .go(maxPosts: affordable >= posts.upperBound ? nil : affordable)
        }
        try await move(to: machine.budget(limited: true, in: status, at: now), reason: "budget", now: now)
        return .hold(Hold(until: plan.todayEnds, reason: .budget))
    }

    /// What the sources served before `source` are expected to need for the rest of
    /// today: the queued statuses' prices (known), a settling read per uncertain status,
    /// and for each feed ahead, what it spent yesterday for the part of today still to
    /// come (and for `source` itself when `itself`). Never more than what is left, so the
    /// first source always gets something.
    private func reserve(before source: BillingSource, itself: Bool, now: Date, leftToday: MicroUSD) async throws -> MicroUSD {
        let rank = source.budgetRank
        var reserve = MicroUSD.zero
        if rank > BillingSource.outbox.budgetRank {
            for item in try await database.outboxItems(state: .pending) {
                reserve = reserve + (try await terms.price(ofQueued: item, database: database))
            }
        }
        if rank > BillingSource.settlement.budgetRank {
            let uncertain = try await database.outboxItems(state: .uncertain).count
            reserve = reserve + terms.prices.ownedRead * (uncertain * 100)
        }
        let ahead = BillingSource.budgetPriority.filter { ($0.budgetRank < rank || itself && $0 == source) && readers.contains($0) }
        if !ahead.isEmpty {
            let yesterday = CivilDate(now).adding(days: -1).description
            let rows = try await database.spend(since: yesterday).filter { $0.day == yesterday && ahead.contains($0.source) }
            let spentYesterday = rows.reduce(MicroUSD.zero) { $0 + $1.cost }
            let rest = BillingCycle.endOfUTCDay(now).timeIntervalSince(now) / 86_400
            reserve = reserve + MicroUSD(micros: Int64((Double(spentYesterday.micros) * rest).rounded(.up)))
        }
        return min(reserve, leftToday)
    }
}
