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
            if let pause = try await settle(item, from: .uncertain, duplicate: nil) { return pause }
            checkIn.working()
        }
        return nil
    }

    /// An attempt without a definite answer: the status may be out. It waits the outbox
    /// backoff (time for the tweet to show in the account's timeline) and is settled then.
    func becomeUncertain(_ item: OutboxItem, error: APIError, now: Date) throws -> Pause {
        let delay = Self.retry.delay(afterFailures: item.attempts)
        let since = item.uncertainSince ?? item.lastAttemptAt ?? now
        try database.transitionOutbox(
            item.id,
            from: [.sending],
            to: .uncertain,
            changes: [
                .nextAttemptAt(now.addingTimeInterval(delay)), .lastError(error.description), .uncertainSince(since),
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

    /// Looks for the status among the account's tweets since its first uncertain
    /// attempt. Found: `sent` with that tweet's id. Absent: back to `pending` to be sent
    /// again, or `failed` with the API's reason when the API called a later attempt a
    /// duplicate (`duplicate`). The tweets could not be read: it stays `uncertain` and is
    /// tried again after a wait.
    func settle(_ item: OutboxItem, from state: OutboxState, duplicate: APIError?) async throws -> Pause? {
        let since = item.uncertainSince ?? item.lastAttemptAt ?? item.queuedAt
        let found: Tweet?
        do {
            found = try await settler.find(item, since: since)
        } catch let error as APIError {
            return try settleLater(item, from: state, since: since, error: error)
        }
        let now = clock.now()
        if let tweet = found {
            // The settled post was created (and charged) by an earlier attempt.
            let bill = try terms.postBill(for: item, database: database)
            try database.transitionOutbox(
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
            try await database.transitionOutbox(
                item.id,
                from: [state],
                to: .failed,
                changes: [.lastError(duplicate.description), .nextAttemptAt(nil)]
            )
            logger.notice("outbox.settled", metadata: ["id": "\(item.id)", "outcome": "failed", "error": "\(duplicate.message)"])
        } else {
            try await database.transitionOutbox(item.id, from: [state], to: .pending, changes: [.nextAttemptAt(nil)])
            logger.notice("outbox.settled", metadata: ["id": "\(item.id)", "outcome": "absent"])
        }
        return nil
    }

    /// The lookup failed: wait and try again. Without a failure counter of its own, the
    /// wait doubles by being the time since the attempt (30 s, 60 s, 120 s ...), within
    /// the outbox backoff's bounds; a 429 waits for its reset, or the rate-limit floor.
    private func settleLater(_ item: OutboxItem, from state: OutboxState, since: Date, error: APIError) throws -> Pause {
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
        try database.transitionOutbox(
            item.id,
            from: [state],
            to: .uncertain,
            changes: [
                .nextAttemptAt(until), .lastError("settling: \(error.description)"), .uncertainSince(since),
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
