import Foundation
import Logging
import ServiceLifecycle
import TwfeedBase
import TwfeedBilling
import TwfeedCore
import TwfeedStatus
import TwfeedStore

/// Sends queued statuses, oldest first, one at a time so replies stay in order.
///
/// Exactly once, without leaning on the API's duplicate check: a status is marked
/// `sending` (committed) before its request. An attempt without a definite answer (the
/// answer lost, a timeout, a 5xx, the daemon killed mid-request) makes it `uncertain`,
/// and before anything else is sent the flusher settles it by reading the account's own
/// tweets (`OutboxSettler`): found, it is `sent` with that id; absent, it goes back to
/// `pending` and is sent again. A status whose turn comes after `maxAgeHours` is expired
/// instead, so nothing surprises its author months later; but never one that may have
/// gone out.
package struct OutboxFlusher: Service {
    let api: any TwitterAPI
    let database: AppDatabase
    let clock: any WallClock
    let doorbell: Doorbell
    let flushInterval: Double
    let maxAgeHours: Double
    let logger: Logger
    /// Told when this loop works and when it sleeps (see `Watchdog`).
    let checkIn: Watchdog.CheckIn

    /// Retries after network errors and 5xx (see `Backoff.outbox`).
    package static let retry = Backoff.outbox

    var settler: OutboxSettler { OutboxSettler(api: api, database: database, clock: clock, terms: terms) }

    /// What the API charges; each sent status's price is recorded as it is marked sent.
    let terms: BillingTerms

    /// Counts the statuses that went out (`twfeed_outbox_sent_total`).
    let metrics: TwfeedMetrics?

    /// Asked before every attempt (billing state, the endpoint, the budget); nil when
    /// nothing is billed (tests of the queue alone).
    let gate: BillingGate?

    package init(
        api: any TwitterAPI,
        database: AppDatabase,
        clock: any WallClock,
        doorbell: Doorbell,
        flushInterval: Double,
        maxAgeHours: Double,
        logger: Logger,
        checkIn: Watchdog.CheckIn = .unwatched,
        metrics: TwfeedMetrics? = nil,
        terms: BillingTerms = BillingTerms(),
        gate: BillingGate? = nil
    ) {
        self.gate = gate
        self.metrics = metrics
        self.terms = terms
        self.api = api
        self.database = database
        self.clock = clock
        self.doorbell = doorbell
        self.flushInterval = flushInterval
        self.maxAgeHours = maxAgeHours
        self.logger = logger
        self.checkIn = checkIn
    }

    package enum Pause: Sendable, Equatable {
        /// The queue is empty or its head is waiting until this time.
        case until(Date)
        /// 401: nothing will go out until the credentials change.
        case unauthorized
    }

    package func run() async throws {
        checkIn.working()
        defer { checkIn.leave() }
        try await recoverInterrupted()
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                checkIn.working()
                let pause: Pause
                do {
                    pause = try await flush()
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("outbox.store_failed", metadata: ["error": "\(error)"])
                    pause = .until(clock.now().addingTimeInterval(flushInterval))
                }
                let now = clock.now()
                switch pause {
                case .until(let date):
                    let wake = min(date, now.addingTimeInterval(flushInterval))
                    checkIn.waiting(until: wake)
                    await doorbell.wait(until: wake, clock: clock)
                case .unauthorized:
                    // Only a new status (or a restart with new credentials) tries again.
                    let wake = now.addingTimeInterval(Backoff.unauthorized.cap)
                    checkIn.waiting(until: wake)
                    await doorbell.wait(until: wake, clock: clock)
                }
            }
        }
    }

    /// A status left `sending` by a crash (or a second instance's) may have gone out:
    /// it becomes `uncertain`, and the next flush settles it before sending anything.
    package func recoverInterrupted() async throws {
        for item in try await database.outboxItems(state: .sending) {
            try await database.transitionOutbox(
                item.id,
                from: [.sending],
                to: .uncertain,
                changes: [
                    .nextAttemptAt(nil), .uncertainSince(item.uncertainSince ?? item.lastAttemptAt ?? item.queuedAt),
                ]
            )
            logger.notice("outbox.recovered", metadata: ["id": "\(item.id)", "attempts": "\(item.attempts)"])
        }
    }

    /// Settles what may have gone out, blocks the thread parts whose parent will not go
    /// out, then sends what is due now; returns when to look again.
    package func flush() async throws -> Pause {
        if let pause = try await settleUncertain() { return pause }
        try await blockOrphanedParts()
        while true {
            try Task.checkCancellation()
            let now = clock.now()
            guard let head = try await database.nextDueOutboxItem(now: now) else {
                // Nothing due: look again at the next `--at` time, or after the interval.
                let next = try await database.nextOutboxTime(after: now) ?? now.addingTimeInterval(flushInterval)
                return .until(min(next, now.addingTimeInterval(flushInterval)))
            }
            // Only a status that certainly never went out expires ("never sent"); its age
            // counts from its time to send when it has one (`--at`).
            if maxAgeHours > 0, head.uncertainSince == nil, now.timeIntervalSince(head.ageOrigin) > maxAgeHours * 3600 {
                try await expire(head, age: now.timeIntervalSince(head.ageOrigin))
                continue
            }
            // Times round-trip through SQLite as doubles: allow for the last bit.
            if let due = head.nextAttemptAt, due.timeIntervalSince(now) > 0.001 { return .until(due) }
            let pause: Pause?
            switch head.kind {
            case .delete:
                pause = try await sendDeletion(head)
            case .post:
                pause = try await sendPost(head)
            }
            if let pause { return pause }
            checkIn.working()
        }
    }

    /// The photos' steps, then the post itself. Returns a pause when the queue must wait.
    /// A thread's later part replies to its parent's post: the store set its
    /// `replyToID` when the parent was marked sent.
    private func sendPost(_ head: OutboxItem) async throws -> Pause? {
        guard !head.photos.isEmpty else { return try await post(head, mediaIDs: []) }
        switch try await preparePhotos(head) {
        case .wait(let pause):
            return pause
        case .ready(let ids):
            // The steps changed it (attempts, errors): go on with it as it is now.
            guard let fresh = try await database.outboxItem(head.id), fresh.state == .pending else { return nil }
            return try await post(fresh, mediaIDs: ids)
        }
    }

    /// The post's attempt: through the gate at its price, `sending` committed first.
    private func post(_ head: OutboxItem, mediaIDs: [String]) async throws -> Pause? {
        // The billing state, the endpoint and the budget come before an attempt: a
        // status held back is not an attempt and stays `pending` (expiry still applies).
        if let gate {
            let price = try await terms.postPricing(text: head.text, replyTo: head.replyToID, database: database).price
            if case .hold(let hold) = try await gate.admit(.outbox, perPost: price, posts: 1...1) {
                return .until(hold.until)
            }
        }
        let now = clock.now()
        let bound = try await idBound(for: head)
        guard
            let sending = try await database.transitionOutbox(
                head.id,
                from: [.pending],
                to: .sending,
                changes: [.attempts(head.attempts + 1), .lastAttemptAt(now), .newestIDBeforeAttempt(bound)]
            )
        else { return nil }  // cancelled meanwhile
        let pause = try await send(sending, mediaIDs: mediaIDs)
        await gate?.release(.outbox)
        return pause
    }

    private func expire(_ head: OutboxItem, age: TimeInterval) async throws {
        try await database.transitionOutbox(
            head.id,
            from: [.pending],
            to: .expired,
            changes: [.lastError(.expired(age: Self.hours(age), limit: Self.hours(maxAgeHours * 3600)))]
        )
        logger.warning(
            "outbox.expired",
            metadata: ["id": "\(head.id)", "age_h": "\(Self.hours(age))", "max_age_h": "\(Self.hours(maxAgeHours * 3600))"]
        )
    }

    /// One attempt. Returns a pause when the queue must wait; nil to go on with the next.
    private func send(_ item: OutboxItem, mediaIDs: [String]) async throws -> Pause? {
        let started = clock.now()
        do {
            let id = try await api.post(text: item.text, replyTo: item.replyToID, mediaIDs: mediaIDs)
            try await markSent(item, tweetID: id, note: nil)
            try await gate?.answered(.outbox)
            logger.info(
                "outbox.sent",
                metadata: [
                    "id": "\(item.id)", "tweet_id": "\(id)", "attempts": "\(item.attempts)",
                    "ms": "\(Int(clock.now().timeIntervalSince(started) * 1000))",
                ]
            )
            return nil
        } catch let error as APIError {
            if error.isDuplicateStatus, item.uncertainSince != nil, error.refusal == nil {
                // An earlier attempt may be the tweet the API means: look for it.
                return try await settle(item, from: .sending, duplicate: error)
            }
            return try await attemptFailed(item, error: error)
        } catch is CancellationError {
            // Shutting down mid-request: it stays `sending`, becomes `uncertain` on the
            // next start and is settled then.
            throw CancellationError()
        }
    }

    /// An attempt (`sending`: a post or a deletion) the API did not carry out, or whose
    /// answer never came. Returns a pause when the queue must wait; nil to go on.
    func attemptFailed(_ item: OutboxItem, error: APIError) async throws -> Pause? {
        let now = clock.now()
        if let refusal = error.refusal, let gate {
            // Refused for money or entitlement: the status did not go out and did not
            // fail. It waits, not counted as an attempt, until the gate lets posts through.
            let hold = try await gate.refused(refusal, source: .outbox)
            try await database.transitionOutbox(
                item.id,
                from: [.sending],
                to: .pending,
                changes: [.attempts(item.attempts - 1)] + Self.refusedChanges(refusal, hold: hold, error: error)
            )
            return .until(hold.until)
        }
        if error.kind == .transient, error.mayHaveArrived {
            return try await becomeUncertain(item, error: error, now: now)
        }
        switch error.kind {
        case .rateLimited:
            // Missing, past or absurd: a floor that doubles per attempt, never "now".
            let reset =
                RateLimit.usableReset(error.rateLimit, now: now)
                ?? now.addingTimeInterval(RateLimit.floor.delay(afterFailures: item.attempts))
            try await retryLater(item, at: reset, error: error)
            logger.warning("outbox.rate_limited", metadata: ["id": "\(item.id)", "until": "\(Timestamp.iso8601(reset))"])
            return .until(reset)
        case .transient:
            let delay = Self.retry.delay(afterFailures: item.attempts)
            try await retryLater(item, at: now.addingTimeInterval(delay), error: error)
            logger.warning(
                "outbox.retry",
                metadata: [
                    "id": "\(item.id)", "attempts": "\(item.attempts)", "error": "\(error.message)",
                    "status": "\(error.status)", "retry_in_s": "\(Int(delay))",
                ]
            )
            return .until(now.addingTimeInterval(delay))
        case .unauthorized:
            // Not an attempt that counts: the status never reached the API's logic.
            try await database.transitionOutbox(
                item.id,
                from: [.sending],
                to: .pending,
                changes: [.attempts(item.attempts - 1), .lastError(error.outboxFailure())]
            )
            return unauthorized(error)
        case .rejected:
            try await database.transitionOutbox(item.id, from: [.sending], to: .failed, changes: [.lastError(error.outboxFailure())])
            logger.error("outbox.failed", metadata: ["id": "\(item.id)", "status": "\(error.status)", "error": "\(error.message)"])
            return nil
        }
    }

    /// A 401: logged once per refusal, and nothing goes out until the credentials change.
    func unauthorized(_ error: APIError) -> Pause {
        logger.error(
            "auth.failed",
            metadata: [
                "component": "outbox", "status": "\(error.status)", "error": "\(error.message)",
                "hint": "check the credentials file or run twfeed login",
            ]
        )
        return .unauthorized
    }

    /// The id bound this attempt is settled by, should it get no definite answer
    /// (`OutboxSettler.find`): the newest tweet id stored now, read before the request
    /// goes out, so certainly made by the server before any post this attempt makes. It
    /// is taken afresh only while no earlier attempt may have gone out (`uncertainSince`
    /// nil); after one, the earlier attempt's bound stays (the earliest), since a bound
    /// read now could already lie above that attempt's post (a home poll may have
    /// stored it meanwhile), which would then never be found.
    /// A synchronous read (one step down the primary key): no hop off the task between
    /// taking the head and sending it.
    func idBound(for item: OutboxItem) async throws -> TweetID? {
        guard item.uncertainSince == nil else { return item.newestIDBeforeAttempt }
        return try await database.newestKnownTweetID()
    }

    func markSent(_ item: OutboxItem, tweetID: TweetID?, note: OutboxFailure?) async throws {
        let now = clock.now()
        // The API answered with a post: it charged for it, in the same transaction as
        // the status becomes sent, so a crash never loses or repeats the charge.
        let bill = try await terms.postBill(for: item, database: database)
        try await database.transitionOutbox(
            item.id,
            from: [.sending],
            to: .sent,
            changes: [
                .sentTweetID(tweetID), .sentAt(now), .lastError(note),
            ],
            bill: bill,
            prices: terms.prices,
            now: now
        )
        metrics?.statusSent()
        if let tweetID, let me = try await database.account()?.userID {
            try await database.storeOwnTweet(Tweet(id: tweetID, authorID: me, createdAt: now, text: item.text, inReplyToID: item.replyToID), now: now)
        }
    }

    /// What a billing refusal sets on the status it refused: the API's reason and, under a
    /// usage cap, a time not to try it before. In every other refusal state the gate stops
    /// posts itself; a usage cap counts reads, so the gate lets posts through, and a post
    /// the API refused with one anyway would go again at every flush, a billing refusal
    /// retried in a loop. It waits for the state's next probe instead (a day at most), and
    /// the queue behind it with it.
    static func refusedChanges(_ refusal: BillingRefusal, hold: BillingGate.Hold, error: APIError) -> [OutboxChange] {
        guard case .usageCapExceeded = refusal else { return [.lastError(error.outboxFailure())] }
        return [.nextAttemptAt(hold.until), .lastError(error.outboxFailure())]
    }

    private func retryLater(_ item: OutboxItem, at date: Date, error: APIError) async throws {
        try await database.transitionOutbox(
            item.id,
            from: [.sending],
            to: .pending,
            changes: [
                .nextAttemptAt(date), .lastError(error.outboxFailure()),
            ]
        )
    }

    static func hours(_ seconds: Double) -> String {
        String(format: "%.1f", seconds / 3600)
    }
}
