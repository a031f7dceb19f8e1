import Foundation
import Logging
import TwfeedBase
import TwfeedBilling
import TwfeedCore

/// The steps before a post with photos: each photo uploaded, then described, in turn,
/// each step recorded before the next. None of them can post anything, so none needs
/// `sending`: an upload whose answer was lost recorded nothing and is simply made
/// again (the orphan is never attached to a post); a media id still valid is never
/// uploaded again, through crashes and restarts, since it is in the store.
extension OutboxFlusher {
    /// How long before its expiry a media id is no longer used: the post that attaches it
    /// may wait behind a backoff or a settling, and the server's clock may count the id's
    /// life from a little earlier than the answer reached us.
    static let mediaMargin: TimeInterval = 600

    /// How long an id lives when the upload's answer does not say (`expires_after_secs`):
    /// the 24 hours X documents.
    static let defaultMediaLifetime: TimeInterval = 86_400

    /// What the photo steps left to do.
    enum PhotosOutcome {
        /// Every photo is uploaded (valid) and described: the media ids, in order.
        case ready([String])
        /// A step must wait (or failed the status for good): the flush returns this.
        case wait(Pause?)
    }

    /// Whether `photo`'s media id may still be attached at `now`.
    static func hasValidMedia(_ photo: OutboxPhoto, now: Date) -> Bool {
        guard photo.mediaID != nil else { return false }
        guard let expires = photo.mediaExpiresAt else { return true }
        return expires.timeIntervalSince(now) > mediaMargin
    }

    /// Uploads and describes the photos of `item` that need it, one step at a time.
    func preparePhotos(_ item: OutboxItem) async throws -> PhotosOutcome {
        var ids: [String] = []
        for photo in item.photos.sorted(by: { $0.position < $1.position }) {
            try Task.checkCancellation()
            var mediaID = photo.mediaID
            var altSet = photo.altSetAt != nil
            if !Self.hasValidMedia(photo, now: clock.now()) {
                if photo.mediaID != nil {
                    // Expired (or about to): its alt text went with it.
                    try await database.forgetPhotoUpload(outboxID: item.id, position: photo.position)
                    logger.notice(
                        "outbox.media_expired",
                        metadata: ["id": "\(item.id)", "photo": "\(photo.position + 1)", "media_id": "\(photo.mediaID ?? "")"]
                    )
                }
                switch try await upload(item, photo) {
                case .ready(let uploaded): mediaID = uploaded.first
                case .wait(let pause): return .wait(pause)
                }
                altSet = false
            }
            guard let mediaID else { return .wait(nil) }
            if let alt = photo.alt, !alt.isEmpty, !altSet {
                if let pause = try await describe(item, photo, mediaID: mediaID, alt: alt) { return .wait(pause) }
            }
            ids.append(mediaID)
        }
        return .ready(ids)
    }

    /// One upload through the gate; the id recorded before anything else, with its
    /// charge (unpublished: `mediaUpload`, 0 unless configured) in the same transaction.
    private func upload(_ item: OutboxItem, _ photo: OutboxPhoto) async throws -> PhotosOutcome {
        if let pause = try await admitStep(price: terms.prices.mediaUpload) { return .wait(pause) }
        let started = clock.now()
        do {
            guard let bytes = try await database.photoBytes(outboxID: item.id, position: photo.position) else {
                await gate?.release(.outbox)
                try await database.transitionOutbox(
                    item.id,
                    from: [.pending],
                    to: .failed,
                    changes: [.lastError(OutboxFailure(kind: .other, message: "photo \(photo.position + 1): its bytes are gone"))]
                )
                return .wait(nil)
            }
            let answer = try await api.uploadMedia(bytes, type: photo.type.mimeType, fileName: photo.fileName)
            let now = clock.now()
            let expires = now.addingTimeInterval(answer.expiresAfter ?? Self.defaultMediaLifetime)
            var bill = BillableAnswer(source: .outbox)
            bill.created = [.mediaUpload]
            try await database.recordPhotoUpload(
                outboxID: item.id,
                position: photo.position,
                mediaID: answer.mediaID,
                expiresAt: expires,
                charge: (bill, terms.prices, now)
            )
            await gate?.release(.outbox)
            try await gate?.answered(.outbox)
            logger.info(
                "outbox.uploaded",
                metadata: [
                    "id": "\(item.id)", "photo": "\(photo.position + 1)", "media_id": "\(answer.mediaID)", "bytes": "\(bytes.count)",
                    "expires": "\(Timestamp.iso8601(expires))", "ms": "\(Int(now.timeIntervalSince(started) * 1000))",
                ]
            )
            return .ready([answer.mediaID])
        } catch let error as APIError {
            await gate?.release(.outbox)
            return .wait(try await stepFailed(item, step: "upload", error: error))
        }
    }

    /// Sets one photo's alt text through the gate, and records that it is set.
    private func describe(_ item: OutboxItem, _ photo: OutboxPhoto, mediaID: String, alt: String) async throws -> Pause? {
        if let pause = try await admitStep(price: .zero) { return pause }
        do {
            try await api.setAltText(mediaID: mediaID, text: alt)
            try await database.recordPhotoAlt(outboxID: item.id, position: photo.position, at: clock.now())
            await gate?.release(.outbox)
            try await gate?.answered(.outbox)
            logger.info("outbox.described", metadata: ["id": "\(item.id)", "photo": "\(photo.position + 1)", "media_id": "\(mediaID)"])
            return nil
        } catch let error as APIError {
            await gate?.release(.outbox)
            return try await stepFailed(item, step: "metadata", error: error)
        }
    }

    /// Asks the gate for one step of the outbox (a write at `price`); the hold's pause
    /// when it may not go, the status left `pending` and not counted as an attempt.
    func admitStep(price: MicroUSD) async throws -> Pause? {
        guard let gate else { return nil }
        if case .hold(let hold) = try await gate.admit(.outbox, perPost: price, posts: 1...1) { return .until(hold.until) }
        return nil
    }

    /// A step before the post (an upload, an alt text) failed. Nothing of it can have
    /// posted, so nothing is uncertain: a billing refusal holds the queue (the status
    /// stays `pending`, not an attempt); a 429 waits for the reset; a 5xx, a timeout or a
    /// lost answer tries again after the outbox backoff (counted as an attempt, so the
    /// wait grows); a 401 stops the queue; any other refusal fails the status with the
    /// API's reason.
    func stepFailed(_ item: OutboxItem, step: String, error: APIError) async throws -> Pause? {
        let now = clock.now()
        if let refusal = error.refusal, let gate {
            let hold = try await gate.refused(refusal, source: .outbox)
            try await database.transitionOutbox(
                item.id,
                from: [.pending],
                to: .pending,
                changes: Self.refusedChanges(refusal, hold: hold, error: error)
            )
            return .until(hold.until)
        }
        switch error.kind {
        case .rateLimited:
            let reset =
                RateLimit.usableReset(error.rateLimit, now: now)
                ?? now.addingTimeInterval(RateLimit.floor.delay(afterFailures: item.attempts + 1))
            try await database.transitionOutbox(
                item.id,
                from: [.pending],
                to: .pending,
                changes: [.nextAttemptAt(reset), .lastError(error.outboxFailure())]
            )
            logger.warning("outbox.rate_limited", metadata: ["id": "\(item.id)", "step": "\(step)", "until": "\(Timestamp.iso8601(reset))"])
            return .until(reset)
        case .transient:
            let attempts = item.attempts + 1
            let delay = Self.retry.delay(afterFailures: attempts)
            try await database.transitionOutbox(
                item.id,
                from: [.pending],
                to: .pending,
                changes: [.attempts(attempts), .lastAttemptAt(now), .nextAttemptAt(now.addingTimeInterval(delay)), .lastError(error.outboxFailure())]
            )
            logger.warning(
                "outbox.retry",
                metadata: [
                    "id": "\(item.id)", "step": "\(step)", "attempts": "\(attempts)", "error": "\(error.message)",
                    "status": "\(error.status)", "retry_in_s": "\(Int(delay))",
                ]
            )
            return .until(now.addingTimeInterval(delay))
        case .unauthorized:
            try await database.transitionOutbox(item.id, from: [.pending], to: .pending, changes: [.lastError(error.outboxFailure())])
            return unauthorized(error)
        case .rejected:
            try await database.transitionOutbox(item.id, from: [.pending], to: .failed, changes: [.lastError(error.outboxFailure())])
            logger.error(
                "outbox.failed",
                metadata: ["id": "\(item.id)", "step": "\(step)", "status": "\(error.status)", "error": "\(error.message)"]
            )
            return nil
        }
    }
}
