import Foundation
import Logging
import Testing
import TwfeedBilling
import TwfeedTesting
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

/// A post with photos goes out in steps (each photo uploaded, then described, then the
/// post), each recorded before the next: a lost answer or a restart at any step never
/// posts twice, never uploads again a photo whose id is still valid, and uploads again
/// one whose id expired.
struct OutboxPhotoStepsTests {
    let fixture: SyncFixture
    let flusher: OutboxFlusher

    init() async throws {
        fixture = try SyncFixture()
        fixture.api.state.withLock { $0.duplicateCheck = false }
        flusher = try await fixture.outboxFlusher()
    }

    static let harbour = PhotoDraft(fileName: "harbour.png", type: .png, bytes: Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]), alt: "A harbour at dawn")
    static let map = PhotoDraft(fileName: "map.jpg", type: .jpeg, bytes: Data([0xFF, 0xD8, 0xFF, 9, 8, 7, 0x0D, 0x0A]), alt: nil)

    func enqueue(_ text: String = "two photos", photos: [PhotoDraft] = [harbour, map]) async throws -> Int64 {
        try await fixture.database.enqueue(StatusDraft(text: text, photos: photos), now: fixture.clock.now()).id
    }

    func item(_ id: Int64) async throws -> OutboxItem { try #require(try await fixture.database.outboxItem(id)) }

    /// Flushes until nothing is due within a day, moving the clock to each pause.
    func flushUntilIdle(rounds: Int = 20) async throws {
        for _ in 0 ..< rounds {
            guard case .until(let next) = try await flusher.flush() else { return }
            if try await fixture.database.outboxItems().allSatisfy({ !$0.state.isUnderway }) { return }
            fixture.clock.advance(to: max(next, fixture.clock.now()))
        }
    }

    @Test func bothPhotosAreUploadedDescribedAndAttachedInOrder() async throws {
        let id = try await enqueue()
        _ = try await flusher.flush()
        let uploads = fixture.api.uploads
        #expect(uploads.map(\.bytes) == [Self.harbour.bytes, Self.map.bytes], "the bytes as queued, in order")
        #expect(uploads.map(\.mime) == ["image/png", "image/jpeg"])
        #expect(uploads.map(\.fileName) == ["harbour.png", "map.jpg"])
        #expect(fixture.api.altTexts.map(\.text) == ["A harbour at dawn"], "only the photo with alt text is described")
        #expect(fixture.api.altTexts.first?.mediaID == uploads.first?.mediaID)
        #expect(fixture.api.postedMedia == [uploads.map(\.mediaID)])
        let sent = try await item(id)
        #expect(sent.state == .sent)
        #expect(sent.photos.map(\.mediaID) == uploads.map(\.mediaID))
        #expect(fixture.sink.events("outbox.uploaded").count == 2)
        #expect(fixture.sink.events("outbox.described").count == 1)
        // Each upload is in the ledger as made (its price unpublished: 0).
        let uploaded = try fixture.database.inspect {
            try Int.fetchOne($0, sql: "SELECT sum(resources) FROM spend WHERE kind = 'media_upload' AND source = 'outbox'")
        }
        #expect(uploaded == 2)
    }

    @Test func anUploadWhoseAnswerWasLostIsMadeAgainAndThePostGoesOutOnce() async throws {
        let id = try await enqueue()
        fixture.api.state.withLock { $0.media.loseNextUpload = true }
        guard case .until(let retry) = try await flusher.flush() else { Issue.record("expected a wait"); return }
        #expect(try await item(id).state == .pending, "nothing can have posted: not uncertain")
        #expect(try await item(id).photos.allSatisfy { $0.mediaID == nil }, "nothing recorded of the lost answer")
        fixture.clock.advance(to: retry)
        try await flushUntilIdle()
        #expect(fixture.api.uploads.count == 3, "the first photo twice (one orphan), the second once")
        #expect(fixture.api.posted.count == 1)
        #expect(fixture.api.postedMedia.first == Array(fixture.api.uploads.suffix(2).map(\.mediaID)))
        #expect(try await item(id).state == .sent)
    }

    @Test func aRestartAfterTheUploadsNeverUploadsAValidIDAgain() async throws {
        let id = try await enqueue()
        // Uploaded, then the alt text's answer is lost and the daemon dies.
        fixture.api.state.withLock { $0.media.loseNextAlt = true }
        _ = try await flusher.flush()
        #expect(fixture.api.uploads.count == 1)
        let restarted = try await fixture.outboxFlusher()
        try await restarted.recoverInterrupted()
        fixture.clock.advance(by: 3600)
        _ = try await restarted.flush()
        #expect(fixture.api.uploads.count == 2, "the first photo's id was still valid: only the second was uploaded")
        #expect(fixture.api.altTexts.count == 2, "setting alt text twice is harmless")
        #expect(fixture.api.posted.count == 1)
        #expect(try await item(id).state == .sent)
    }

    @Test func aLostAnswerToThePostIsSettledWithoutASecondPostOrUpload() async throws {
        let id = try await enqueue()
        fixture.api.state.withLock { $0.loseNextAnswer = true }
        _ = try await flusher.flush()
        #expect(try await item(id).state == .uncertain)
        try await flushUntilIdle()
        #expect(try await item(id).state == .sent)
        #expect(fixture.api.posted.count == 1)
        #expect(fixture.api.uploads.count == 2)
    }

    @Test func anExpiredIDIsUploadedAgainBeforeThePost() async throws {
        fixture.api.state.withLock { $0.media.expiresAfter = 3600 }
        let id = try await enqueue(photos: [Self.harbour])
        // Uploaded and described, then the post is rate limited for two hours.
        let reset = fixture.clock.now().addingTimeInterval(7200)
        fixture.api.failNextPost(
            APIError(kind: .rateLimited, status: 429, message: "Too Many Requests", rateLimit: RateLimit(limit: 1, remaining: 0, resetAt: reset)))
        #expect(try await flusher.flush() == .until(reset))
        let first = try #require(fixture.api.uploads.first?.mediaID)
        fixture.clock.advance(to: reset)
        _ = try await flusher.flush()
        #expect(fixture.api.uploads.count == 2)
        let second = try #require(fixture.api.uploads.last?.mediaID)
        #expect(first != second)
        #expect(fixture.api.postedMedia == [[second]], "posted with the fresh id")
        #expect(fixture.api.altTexts.map(\.mediaID) == [first, second], "the new id described too")
        #expect(fixture.sink.events("outbox.media_expired").count == 1)
        #expect(try await item(id).state == .sent)
    }

    @Test func aRefusedPhotoFailsTheStatusWithTheAPIsReason() async throws {
        let id = try await enqueue(photos: [Self.harbour])
        fixture.api.state.withLock {
            $0.media.uploadFailures = [APIError(kind: .rejected, status: 400, message: "media type unrecognized")]
        }
        _ = try await flusher.flush()
        let failed = try await item(id)
        #expect(failed.state == .failed)
        #expect(failed.lastError?.description.contains("media type unrecognized") == true)
        #expect(fixture.api.posted.isEmpty)
    }

    @Test func aPaymentRequiredAtAnyStepHoldsTheWholeQueueWithNothingFailed() async throws {
        var config = TwfeedConfig.API()
        config.creditsRecheckMinutes = 15
        let gate = BillingGate(database: fixture.database, config: config, clock: fixture.clock, logger: fixture.logger)
        let held = try await fixture.outboxFlusher(gate: gate)
        let photo = try await enqueue(photos: [Self.harbour])
        let plain = try await fixture.database.enqueue(text: "behind it", replyTo: nil, now: fixture.clock.now()).id
        let body = Array(#"{"title":"CreditsDepleted","detail":"Your enrolled account does not have any credits","type":"https://api.twitter.com/2/problems/credits"}"#.utf8)
        for step in 0 ..< 3 {
            let refusal = APIError(kind: .rejected, status: 402, message: "Payment Required", refusal: BillingRefusal.classify(status: 402, body: body))
            fixture.api.state.withLock { state in
                switch step {
                case 0: state.media.uploadFailures = [refusal]
                case 1: state.media.altFailures = [refusal]
                default: state.postFailures = [refusal]
                }
            }
            guard case .until(let until) = try await held.flush() else { Issue.record("no hold"); return }
            let before = [fixture.api.uploads.count, fixture.api.altTexts.count, fixture.api.posted.count]
            #expect(until.timeIntervalSince(fixture.clock.now()) >= 15 * 60 - 1, "held until the next probe, not retried")
            #expect(try await item(photo).state == .pending)
            #expect(try await item(photo).attempts == 0)
            #expect(try await item(plain).state == .pending, "the whole queue waits")
            // Nothing goes out before the probe is due.
            fixture.clock.advance(by: 60)
            _ = try await held.flush()
            #expect([fixture.api.uploads.count, fixture.api.altTexts.count, fixture.api.posted.count] == before, "step \(step)")
            fixture.clock.advance(to: until)
        }
        _ = try await held.flush()
        #expect(try await item(photo).state == .sent)
        #expect(try await item(plain).state == .sent)
        #expect(fixture.api.posted == ["two photos", "behind it"])
        #expect(fixture.api.uploads.count == 1, "the id recorded before the refusals was used")
    }

    /// A usage cap counts reads, so the gate lets posts through under one; a post (or a
    /// photo's step) the API refuses with it anyway waits for the state's next probe,
    /// the queue behind it too: one refused request, not one per flush.
    @Test(arguments: [0, 2])
    func aPostRefusedForAUsageCapWaitsForTheNextProbeNotTheNextFlush(step: Int) async throws {
        let gate = BillingGate(database: fixture.database, config: TwfeedConfig.API(), clock: fixture.clock, logger: fixture.logger)
        let held = try await fixture.outboxFlusher(gate: gate)
        let photo = try await enqueue(photos: [Self.harbour])
        let plain = try await fixture.database.enqueue(text: "behind it", replyTo: nil, now: fixture.clock.now()).id
        let body = Array(#"{"title":"UsageCapExceeded","period":"Monthly","scope":"Product","detail":"Usage cap exceeded: Monthly product cap","type":"https://api.twitter.com/2/problems/usage-capped"}"#.utf8)
        let refusal = APIError(kind: .rateLimited, status: 429, message: "Too Many Requests", refusal: BillingRefusal.classify(status: 429, body: body))
        fixture.api.state.withLock { state in
            if step == 0 { state.media.uploadFailures = [refusal] } else { state.postFailures = [refusal] }
        }
        guard case .until(let until) = try await held.flush() else { Issue.record("no hold"); return }
        #expect(until.timeIntervalSince(fixture.clock.now()) > 3_600, "held until the next probe, not the next flush")
        let tried = fixture.api.uploads.count + fixture.api.posted.count
        for _ in 0 ..< 10 {
            fixture.clock.advance(by: 60)
            _ = try await held.flush()
        }
        #expect(fixture.api.uploads.count + fixture.api.posted.count == tried, "nothing sent again in ten flushes")
        #expect(try await item(photo).state == .pending)
        #expect(try await item(photo).attempts == 0)
        #expect(try await item(plain).state == .pending, "the queue behind it waits too")
        fixture.clock.advance(to: until)
        _ = try await held.flush()
        #expect(try await item(photo).state == .sent)
        #expect(try await item(plain).state == .sent)
    }
}
