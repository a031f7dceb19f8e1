import Foundation

/// What the outbox's second floor needs of the emulator: photos uploaded and their alt
/// text, posts deleted, and how long an uploaded id stays usable. The same reads are
/// `GET /_emulator/posted`; the settings `POST /_emulator/media`.
extension Emulator {
    /// Every photo uploaded with `POST /2/media/upload`, in order (an upload whose answer a
    /// fault swallowed included).
    public var mediaUploads: [EmulatorMediaUpload] {
        core.state.withLock { $0.uploads.all }.map(EmulatorMediaUpload.init)
    }

    /// How many times the same bytes were uploaded, by their SHA-256.
    public var mediaUploadCounts: [String: Int] {
        core.state.withLock { $0.uploads.uploadCounts }
    }

    /// Every post deleted through the API (`DELETE /2/tweets/:id`, `statuses/destroy`), in order.
    public var deletions: [PostDeletion] {
        core.state.withLock { $0.deletions }
    }

    /// `expires_after_secs` of uploads from now on (`EmulatorConfiguration.mediaExpirySeconds`).
    public var mediaExpirySeconds: Int {
        core.state.withLock { $0.uploads.expirySeconds }
    }

    /// Sets `expires_after_secs` for uploads from now on (negative counts as 0: an id
    /// already expired). Earlier uploads keep theirs; move the clock
    /// (`setClockSkew(seconds:)`) to expire them.
    public func setMediaExpiry(seconds: Int) {
        core.state.withLock { $0.uploads.expirySeconds = max(0, seconds) }
    }

    /// How `DELETE /2/tweets/:id` answers for a post that is unknown or already gone.
    public var goneDeletion: EmulatorGoneDeletion {
        core.state.withLock { $0.goneDeletion }
    }

    public func setGoneDeletion(_ answer: EmulatorGoneDeletion) {
        core.state.withLock { $0.goneDeletion = answer }
    }
}
