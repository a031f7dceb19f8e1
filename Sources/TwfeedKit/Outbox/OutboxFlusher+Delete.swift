import Foundation
import Logging
import TwfeedBase
import TwfeedBilling
import TwfeedCore

/// Deletions (`twfeed delete`): the same exactly-once machinery as posts. `sending` is
/// committed before the request; a lost answer makes it `uncertain`, settled by looking
/// the post up (gone: the deletion went through); the stored post is marked deleted in
/// the transaction that makes the deletion `sent` (`AppDatabase.afterSent`), and
/// charged there, once.
extension OutboxFlusher {
    /// One attempt at deleting `head`'s post. Returns a pause when the queue must wait.
    func sendDeletion(_ head: OutboxItem) async throws -> Pause? {
        guard let target = head.targetTweetID else {
            try await database.transitionOutbox(
                head.id,
                from: [.pending],
                to: .failed,
                changes: [.lastError(OutboxFailure(kind: .other, message: "no post to delete"))]
            )
            return nil
        }
        if let pause = try await admitStep(price: terms.prices.postDelete) { return pause }
        let now = clock.now()
        guard
            let sending = try await database.transitionOutbox(
                head.id,
                from: [.pending],
                to: .sending,
                changes: [.attempts(head.attempts + 1), .lastAttemptAt(now)]
            )
        else {
            await gate?.release(.outbox)
            return nil
        }
        let started = clock.now()
        do {
            try await api.deleteTweet(target)
            try await markDeleted(sending, from: .sending, charged: true)
            try await gate?.answered(.outbox)
            await gate?.release(.outbox)
            logger.info(
                "outbox.deleted",
                metadata: [
                    "id": "\(sending.id)", "tweet_id": "\(target)", "attempts": "\(sending.attempts)",
                    "ms": "\(Int(clock.now().timeIntervalSince(started) * 1000))",
                ]
            )
            return nil
        } catch let error as APIError where error.status == 404 && error.refusal == nil {
            // The post is gone already: an earlier attempt whose answer was lost (charged
            // then), or deleted elsewhere. What was asked for is done.
            try await markDeleted(sending, from: .sending, charged: sending.uncertainSince != nil)
            await gate?.release(.outbox)
            logger.notice("outbox.deleted", metadata: ["id": "\(sending.id)", "tweet_id": "\(target)", "note": "already gone (404)"])
            return nil
        } catch let error as APIError where error.isNotDeleted {
            // "deleted": false: nothing deleted now. Gone already (an earlier attempt),
            // or refused: the post looked up says which.
            await gate?.release(.outbox)
            return try await settleDeletion(sending, from: .sending, refusal: error)
        } catch let error as APIError {
            await gate?.release(.outbox)
            return try await attemptFailed(sending, error: error)
        }
    }

    /// `sent`, with the stored post marked deleted (the store does it in the same
    /// transaction) and, when the API charged for it, the deletion's price in the ledger.
    func markDeleted(_ item: OutboxItem, from state: OutboxState, charged: Bool) async throws {
        let now = clock.now()
        var bill = BillableAnswer(source: .outbox)
        if charged { bill.created = [.postDelete] }
        try await database.transitionOutbox(
            item.id,
            from: [state],
            to: .sent,
            changes: [.sentAt(now), .lastError(nil), .nextAttemptAt(nil)],
            bill: bill,
            prices: terms.prices,
            now: now
        )
        metrics?.statusSent()
    }

    /// An uncertain deletion: the post looked up by id (`GET /2/tweets?ids=`, through
    /// the gate as a settling read). Gone: the deletion went through (`sent`, charged
    /// once). Still there: back to `pending`, deleted again. Not readable now: it stays
    /// `uncertain` and is looked up again later.
    /// `refusal`: the `"deleted": false` answer this lookup follows; the post still
    /// there then fails the deletion with it, rather than sending it again.
    func settleDeletion(_ item: OutboxItem, from state: OutboxState = .uncertain, refusal: APIError? = nil) async throws -> Pause? {
        guard let target = item.targetTweetID else { return nil }
        let since = item.uncertainSince ?? item.lastAttemptAt ?? item.queuedAt
        // A billing state stops the read: it stays uncertain until the state lets one through.
        func held(_ hold: BillingGate.Hold) async throws -> Pause {
            try await database.transitionOutbox(
                item.id,
                from: [state],
                to: .uncertain,
                changes: [
                    .nextAttemptAt(hold.until), .uncertainSince(since),
                    .lastError(OutboxFailure(kind: .settlingHeld, message: hold.description)),
                ]
            )
            return .until(hold.until)
        }
        if let gate, case .hold(let hold) = try await gate.admit(.settlement, perPost: terms.worstCase(perPostOf: .postRead), posts: 1...1) {
            return try await held(hold)
        }
        let stillThere: Bool
        do {
            let lookup = try await api.tweets(ids: [target])
            try await database.recordSpend(.page(lookup.page, source: .settlement, postKind: .postRead), prices: terms.prices, now: clock.now())
            await gate?.release(.settlement)
            try await gate?.answered(.settlement)
            stillThere = lookup.page.tweets.contains { $0.id == target }
        } catch let error as APIError {
            await gate?.release(.settlement)
            if let billing = error.refusal, let gate { return try await held(try await gate.refused(billing, source: .settlement)) }
            return try await settleLater(item, from: state, since: since, error: error)
        }
        if stillThere, let refusal {
            try await database.transitionOutbox(item.id, from: [state], to: .failed, changes: [.lastError(refusal.outboxFailure())])
            logger.error("outbox.failed", metadata: ["id": "\(item.id)", "status": "\(refusal.status)", "error": "\(refusal.message)"])
        } else if stillThere {
            try await database.transitionOutbox(item.id, from: [state], to: .pending, changes: [.nextAttemptAt(nil)])
            logger.notice("outbox.settled", metadata: ["id": "\(item.id)", "outcome": "absent", "tweet_id": "\(target)"])
        } else {
            // Gone: this deletion's doing only if an earlier attempt may have gone
            // through (charged then); after a plain "deleted": false, someone else's.
            try await markDeleted(item, from: state, charged: refusal == nil || item.uncertainSince != nil)
            logger.notice("outbox.settled", metadata: ["id": "\(item.id)", "outcome": "deleted", "tweet_id": "\(target)"])
        }
        return nil
    }
}
