import Foundation
import Logging
import TwfeedBase
import TwfeedCore

/// The flusher's side of "uncertain": a status that may have gone out is looked up
/// among the account's own tweets (`OutboxSettler`) before it is ever sent again.
extension OutboxFlusher {
    /// Settles every uncertain status, oldest first. Returns a pause when one cannot be
    /// settled yet: the queue waits behind it, so statuses still go out in order.
    func settleUncertain() async throws -> Pause? {
        for item in try await database.outboxItems(state: .uncertain) {
            try Task.checkCancellation()
            if let due = item.nextAttemptAt, due.timeIntervalSince(clock.now()) > 0.001 { return .until(due) }
            let pause =
                item.kind == .delete
                ? try await settleDeletion(item) : try await settle(item, from: .uncertain, duplicate: nil)
            if let pause { return pause }
            checkIn.working()
        }
        return nil
    }

    /// An attempt without a definite answer: the status may be out. It waits the outbox
    /// backoff (time for the tweet to show in the account's timeline) and is settled then.
    func becomeUncertain(_ item: OutboxItem, error: APIError, now: Date) async throws -> Pause {
        let delay = Self.retry.delay(afterFailures: item.attempts)
        let since = item.uncertainSince ?? item.lastAttemptAt ?? now
        try await database.transitionOutbox(
            item.id,
            from: [.sending],
            to: .uncertain,
            changes: [
                .nextAttemptAt(now.addingTimeInterval(delay)), .lastError(error.outboxFailure()), .uncertainSince(since),
            ]
        )
        logger.warning(
            "outbox.uncertain",
            metadata: [
                "id": "\(item.id)", "attempts": "\(item.attempts)", "status": "\(error.status)",
                "error": "\(error.message)", "settle_in_s": "\(Int(delay))",
            ]
        )
        return .until(now.addingTimeInterval(delay))
    }

    /// Looks for the status among the account's own posts made after its earliest
    /// attempt that may have gone out (`OutboxSettler.find`, by the server's ids).
    /// Found: `sent` with that post's id. Absent: back to `pending` to be sent again.
    /// The posts could not be read for now (a 5xx, a 429): it stays `uncertain` and is
    /// tried again after a wait.
    ///
    /// Two cases lean on the API's duplicate answer, each the best proof left:
    /// - The API refuses the read itself (`isRefusedRead`: a 403 for an endpoint outside
    ///   the account's access, say), so waiting would never settle it. The status goes
    ///   back to `pending` still marked uncertain and is sent again at once: a
    ///   "duplicate" answer then proves the earlier attempt went out (below); a post is a
    ///   post that had not. Only while the attempt is at most an hour old
    ///   (`resendWindow`), well inside the duplicate check's window; an older one fails
    ///   and says why (`failUnsettled`), unless the refusal is a billing one (a usage
    ///   cap, an endpoint not enrolled), which it waits out. The budget's hold resends on
    ///   the same terms.
    /// - A later attempt was called a duplicate (`duplicate`) and no post matched (or
    ///   none could be read): the duplicate check compares the account's own recent
    ///   posts, so a recent post of ours holds this text. Either it is the earlier
    ///   attempt, which matching missed (a rewriting of the text not undone, the
    ///   timeline lagging behind the post), or the author posted the same text just
    ///   before: in both the text is out on the account, once, and sending it again is
    ///   refused for as long as the window lasts. So it is `sent`, without a post id and
    ///   with a note saying why, and charged once as a post, not `failed` (which would
    ///   have the author send it again and be refused).
    func settle(_ item: OutboxItem, from state: OutboxState, duplicate: APIError?) async throws -> Pause? {
        let since = item.uncertainSince ?? item.lastAttemptAt ?? item.queuedAt
        let found: Tweet?
        do {
            found = try await settlementRead(item, since: since)
        } catch let hold as BillingGate.Hold {
            if case .budget = hold.reason, duplicate == nil, mayResend(since: since) {
                // The budget cannot pay for the read: a resend costs nothing if the API
                // calls it a duplicate, and is the post itself if it is not.
                return try await resendToSettle(item, from: state, since: since, why: "the budget cannot pay for reading own posts")
            }
            if let duplicate { return try await settleAsDuplicate(item, from: state, duplicate: duplicate) }
            // A billing state (or the budget, past the resend window) stops the read.
            return try await holdUnsettled(item, from: state, since: since, hold: hold)
        } catch let error as APIError {
            if let duplicate, error.kind != .rateLimited {
                // The duplicate answer is proof enough; no need to wait for the read.
                return try await settleAsDuplicate(item, from: state, duplicate: duplicate)
            }
            if duplicate == nil, Self.isRefusedRead(error) {
                if !mayResend(since: since) {
                    // A billing refusal (a usage cap, an endpoint not enrolled) never fails a
                    // status: it waits, uncertain, until the gate lets a read through.
                    if let refusal = error.refusal, let gate {
                        return try await holdUnsettled(item, from: state, since: since, hold: try await gate.refused(refusal, source: .settlement))
                    }
                    return try await failUnsettled(item, from: state, error: error)
                }
                return try await resendToSettle(item, from: state, since: since, why: "own posts refused (\(error.description))")
            }
            return try await settleLater(item, from: state, since: since, error: error)
        }
        let now = clock.now()
        if let tweet = found {
            // The settled post was created (and charged) by an earlier attempt.
            let bill = try await terms.postBill(for: item, database: database)
            try await database.transitionOutbox(
                item.id,
                from: [state],
                to: .sent,
                changes: [
                    .sentTweetID(tweet.id), .sentAt(now), .lastError(nil), .nextAttemptAt(nil),
                ],
                bill: bill,
                prices: terms.prices,
                now: now
            )
            try await database.storeOwnTweet(tweet, now: now)
            metrics?.statusSent()
            logger.notice("outbox.settled", metadata: ["id": "\(item.id)", "outcome": "sent", "tweet_id": "\(tweet.id)"])
        } else if let duplicate {
            return try await settleAsDuplicate(item, from: state, duplicate: duplicate)
        } else {
            try await database.transitionOutbox(item.id, from: [state], to: .pending, changes: [.nextAttemptAt(nil)])
            logger.notice("outbox.settled", metadata: ["id": "\(item.id)", "outcome": "absent"])
        }
        return nil
    }

    /// `sent` on the strength of a duplicate answer (see `settle`): no post id, a note,
    /// the post charged once (the earlier attempt's; the refused resend costs nothing).
    private func settleAsDuplicate(_ item: OutboxItem, from state: OutboxState, duplicate: APIError) async throws -> Pause? {
        let now = clock.now()
        let bill = try await terms.postBill(for: item, database: database)
        try await database.transitionOutbox(
            item.id,
            from: [state],
            to: .sent,
            changes: [.sentTweetID(nil), .sentAt(now), .lastError(duplicate.outboxFailure(.sentAsDuplicate)), .nextAttemptAt(nil)],
            bill: bill,
            prices: terms.prices,
            now: now
        )
        metrics?.statusSent()
        logger.notice("outbox.settled", metadata: ["id": "\(item.id)", "outcome": "duplicate", "error": "\(duplicate.message)"])
        return nil
    }

    /// Whether the own-posts read was refused for good, not for now: a 4xx other than
    /// 429, 408 and 401 (`rejected`). Not a 402: out of credits, a post is refused too,
    /// and waiting (`settleLater`) is all there is to do.
    static func isRefusedRead(_ error: APIError) -> Bool {
        switch error.refusal {
        case .usageCapExceeded?, .notPermitted?: return true  // reads refused for weeks, or for good
        case .creditsDepleted?, .spendCapReached?: return false  // a post would be refused too
        case nil: return error.kind == .rejected && error.status != 402
        }
    }

    /// How long after its earliest attempt that may have gone out a status may still be
    /// sent again to be settled by the API's duplicate answer. The duplicate check covers
    /// recent posts only (x-api.md: a window, not forever, of a length X does not
    /// publish): past this, a resend could post it twice. A status uncertain for longer
    /// (a restart the next day, say) waits for a read instead, and when the API refuses
    /// reads for good, it fails and says so: the author looks, and `outbox retry` sends it.
    static let resendWindow: TimeInterval = 3_600

    func mayResend(since: Date) -> Bool { clock.now().timeIntervalSince(since) <= Self.resendWindow }

    /// The read that would settle it is held back (a billing state, the budget): it stays
    /// uncertain, and is looked at again when the hold ends.
    private func holdUnsettled(_ item: OutboxItem, from state: OutboxState, since: Date, hold: BillingGate.Hold) async throws -> Pause {
        try await database.transitionOutbox(
            item.id,
            from: [state],
            to: .uncertain,
            changes: [
                .nextAttemptAt(hold.until), .uncertainSince(since), .lastError(OutboxFailure(kind: .settlingHeld, message: hold.description)),
            ]
        )
        return .until(hold.until)
    }

    /// The own posts are refused for good, and the attempt is too old for a resend to be
    /// safe: `failed`, with the read's answer, never sent blind. No longer marked
    /// uncertain: nothing twfeed can read will settle it, so the author, who can look,
    /// decides, and `outbox retry` then sends it as a status that never went out.
    private func failUnsettled(_ item: OutboxItem, from state: OutboxState, error: APIError) async throws -> Pause? {
        try await database.transitionOutbox(
            item.id,
            from: [state],
            to: .failed,
            changes: [
                .nextAttemptAt(nil), .uncertainSince(nil), .newestIDBeforeAttempt(nil),
                .lastError(error.outboxFailure(.settlingFailed)),
            ]
        )
        logger.error(
            "outbox.failed",
            metadata: [
                "id": "\(item.id)", "status": "\(error.status)",
                "error": "may have gone out, and own posts cannot be read to tell: \(error.message)",
            ]
        )
        return nil
    }

    /// The own posts cannot be read to settle it: back to `pending`, still marked
    /// uncertain, and sent again at once; a duplicate answer proves it went out.
    private func resendToSettle(_ item: OutboxItem, from state: OutboxState, since: Date, why: String) async throws -> Pause? {
        try await database.transitionOutbox(
            item.id,
            from: [state],
            to: .pending,
            changes: [
                .nextAttemptAt(nil), .uncertainSince(since),
                .lastError(OutboxFailure(kind: .settlingResend, message: why)),
            ]
        )
        logger.notice("outbox.settled", metadata: ["id": "\(item.id)", "outcome": "resend", "why": "\(why)"])
        return nil
    }

    /// The settling read, through the billing gate when there is one: admitted at its
    /// worst case (a full page of own posts), the gate told how the API answered.
    private func settlementRead(_ item: OutboxItem, since: Date) async throws -> Tweet? {
        guard let gate else { return try await settler.find(item, since: since) }
        let perPost = terms.worstCase(perPostOf: terms.ownsApp ? .ownedRead : .postRead)
        if case .hold(let hold) = try await gate.admit(.settlement, perPost: perPost, posts: 100...100) { throw hold }
        do {
            let found = try await settler.find(item, since: since)
            await gate.release(.settlement)  // its charge is in the ledger
            try await gate.answered(.settlement)
            return found
        } catch let error as APIError {
            await gate.release(.settlement)
            if let refusal = error.refusal, !Self.isRefusedRead(error) {
                throw try await gate.refused(refusal, source: .settlement)
            }
            throw error
        }
    }

    /// The lookup failed: wait and try again. Without a failure counter of its own, the
    /// wait doubles by being the time since the attempt (30 s, 60 s, 120 s ...), within
    /// the outbox backoff's bounds; a 429 waits for its reset, or the rate-limit floor.
    func settleLater(_ item: OutboxItem, from state: OutboxState, since: Date, error: APIError) async throws -> Pause {
        let now = clock.now()
        let until: Date
        if error.kind == .rateLimited {
            until =
                RateLimit.usableReset(error.rateLimit, now: now)
                ?? now.addingTimeInterval(RateLimit.floor.delay(afterFailures: max(1, item.attempts)))
        } else {
            let elapsed = now.timeIntervalSince(item.lastAttemptAt ?? now)
            until = now.addingTimeInterval(min(Self.retry.cap, max(Self.retry.base, elapsed)))
        }
        try await database.transitionOutbox(
            item.id,
            from: [state],
            to: .uncertain,
            changes: [
                .nextAttemptAt(until), .lastError(error.outboxFailure(.settlingFailed)), .uncertainSince(since),
            ]
        )
        logger.warning(
            "outbox.settle_failed",
            metadata: [
                "id": "\(item.id)", "status": "\(error.status)", "error": "\(error.message)",
                "retry_in_s": "\(Int(until.timeIntervalSince(now)))",
            ]
        )
        return .until(until)
    }
}
