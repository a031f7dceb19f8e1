import Foundation
import Logging
import Testing
import TwfeedTesting
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore
import TwfeedBilling

/// Defect 3: exactly once must not lean on the API's duplicate check. These tests turn
/// the fake API's check off where it would hide a second post, so only the settling
/// (reading the account's own tweets) can keep a status from going out twice.
struct OutboxUncertainTests {
    let fixture: SyncFixture
    let flusher: OutboxFlusher

    init() async throws {
        fixture = try SyncFixture()
        try await fixture.database.saveAccount(Account(userID: FakeTimelineAPI.me.id))
        flusher = OutboxFlusher(
            api: fixture.api, database: fixture.database, clock: fixture.clock, doorbell: Doorbell(),
            flushInterval: 60, maxAgeHours: 24, logger: fixture.logger)
    }

    func enqueue(_ text: String, ageHours: Double = 0) async throws -> Int64 {
        try await fixture.database.enqueue(text: text, replyTo: nil, now: fixture.clock.now().addingTimeInterval(-ageHours * 3600)).id
    }

    func item(_ id: Int64) async throws -> OutboxItem { try #require(try await fixture.database.outboxItem(id)) }

    /// Flushes, then moves the clock to the pause and flushes again.
    func flushTwice() async throws {
        guard case .until(let next) = try await flusher.flush() else { Issue.record("expected a pause"); return }
        fixture.clock.advance(to: next)
        _ = try await flusher.flush()
    }

    @Test func aLostAnswerIsSettledAsSentWithItsTweetIDWithoutASecondPost() async throws {
        fixture.api.state.withLock { $0.duplicateCheck = false; $0.loseNextAnswer = true }
        let id = try await enqueue("hello")
        _ = try await flusher.flush()
        #expect(try await item(id).state.rawValue == "uncertain")
        try await flushTwice()
        let settled = try await item(id)
        #expect(settled.state == .sent)
        #expect(fixture.api.posted == ["hello"])
        let tweetID = fixture.api.state.withLock { $0.ownTweets.first?.id }
        #expect(settled.sentTweetID != nil)
        #expect(settled.sentTweetID == tweetID)
        #expect(settled.attempts == 1)
        #expect(fixture.sink.events("outbox.settled").first?.contains("outcome=sent") == true)
    }

    @Test func aStatusTheAPINeverTookIsSentAgainExactlyOnce() async throws {
        fixture.api.state.withLock { $0.duplicateCheck = false }
        fixture.api.failNextPost(APIError(kind: .transient, status: 503, message: "Service Unavailable"))
        let id = try await enqueue("second time lucky")
        try await flushTwice()
        let sent = try await item(id)
        #expect(sent.state == .sent)
        #expect(sent.sentTweetID != nil)
        #expect(sent.attempts == 2)
        #expect(fixture.api.posted == ["second time lucky"])
        #expect(fixture.sink.events("outbox.settled").first?.contains("outcome=absent") == true)
    }

    @Test func aStatusFoundSendingAtStartIsSettledNotPostedAgain() async throws {
        fixture.api.state.withLock { $0.duplicateCheck = false }
        let id = try await enqueue("interrupted")
        // As if the daemon was killed after marking it sending and after the API took it.
        try await fixture.database.transitionOutbox(id, from: [.pending], to: .sending, changes: [.attempts(1), .lastAttemptAt(fixture.clock.now())])
        _ = try await fixture.api.post(text: "interrupted", replyTo: nil)
        fixture.clock.advance(by: 30)
        try await flusher.recoverInterrupted()
        #expect(try await item(id).state.rawValue == "uncertain")
        _ = try await flusher.flush()
        #expect(try await item(id).state == .sent)
        #expect(try await item(id).sentTweetID == fixture.api.state.withLock { $0.ownTweets.first?.id })
        #expect(fixture.api.posted == ["interrupted"])
    }

    @Test func aStatusThatMayHaveGoneOutNeverExpires() async throws {
        fixture.api.state.withLock { $0.duplicateCheck = false; $0.loseNextAnswer = true }
        // Queued 23.9 h ago: its first attempt is in time, its retry is not.
        let id = try await enqueue("went out after all", ageHours: 23.9)
        _ = try await flusher.flush()
        fixture.clock.advance(by: 3600)
        _ = try await flusher.flush()
        let settled = try await item(id)
        #expect(settled.state == .sent)
        #expect(settled.sentTweetID != nil)
        #expect(fixture.sink.events("outbox.expired").isEmpty)
        #expect(fixture.api.posted == ["went out after all"])
    }

    @Test func aDuplicateOnTheFirstAttemptFailsWithTheAPIsReason() async throws {
        // Yesterday's "gm" is still inside the API's duplicate window.
        _ = try await fixture.api.post(text: "gm", replyTo: nil)
        fixture.clock.advance(by: 3600)
        let id = try await enqueue("gm")
        _ = try await flusher.flush()
        let failed = try await item(id)
        #expect(failed.state == .failed)
        #expect(failed.sentTweetID == nil)
        #expect(failed.lastError?.kind == .attempt)
        #expect(failed.lastError?.description.contains("duplicate") == true)
        #expect(fixture.sink.events("outbox.failed").count == 1)
    }

    @Test func aDuplicateAfterAnUncertainAttemptIsLookedUpAgain() async throws {
        // The answer is lost, and the first look at the timeline does not show the tweet
        // yet: sent again, the API calls it a duplicate, and the second look finds it.
        fixture.api.state.withLock { $0.loseNextAnswer = true; $0.ownTweetsLagging = 1 }
        let id = try await enqueue("slow timeline")
        try await flushTwice()
        let settled = try await item(id)
        #expect(settled.state == .sent)
        #expect(settled.sentTweetID == fixture.api.state.withLock { $0.ownTweets.first?.id })
        #expect(fixture.api.posted == ["slow timeline"])
        #expect(fixture.api.state.withLock { $0.ownTweetsCalls } == 2)
    }

    /// The duplicate check compares the account's own recent posts: after an attempt
    /// that may have gone out, a duplicate answer with no match found is proof the text
    /// is out (sent, with a note and no id), not a failure to be retried and refused.
    @Test func aDuplicateAfterAnUncertainAttemptThatIsNotFoundIsSentWithANote() async throws {
        fixture.api.state.withLock { $0.loseNextAnswer = true; $0.ownTweetsLagging = 2 }
        let id = try await enqueue("never shows")
        try await flushTwice()
        let sent = try await item(id)
        #expect(sent.state == .sent)
        #expect(sent.sentTweetID == nil)
        #expect(sent.lastError?.kind == .sentAsDuplicate)
        #expect(sent.lastError?.description.hasPrefix(OutboxFailure.duplicateNote) == true)
        #expect(fixture.api.posted == ["never shows"])
        #expect(fixture.sink.events("outbox.settled").last?.contains("outcome=duplicate") == true)
    }

    /// The bound is the newest tweet id stored before the attempt, and settling asks the
    /// API only for the posts after it (`since_id`), comparing no dates.
    @Test func settlingAsksForThePostsAfterTheNewestIDKnownBeforeTheAttempt() async throws {
        fixture.api.state.withLock { $0.duplicateCheck = false; $0.loseNextAnswer = true }
        let known = Tweet(id: TweetID(1_800_000_000_000_000_000), authorID: UserID(7), createdAt: fixture.clock.now(), text: "older")
        try await fixture.database.storeOwnTweet(known, now: fixture.clock.now())
        let id = try await enqueue("after the bound")
        guard case .until(let next) = try await flusher.flush() else { Issue.record("expected a pause"); return }
        #expect(try await item(id).newestIDBeforeAttempt == known.id)
        // The attempt seems a day later than the post: a date comparison would miss it; ids do not.
        fixture.clock.advance(to: next)
        let moved = try await item(id)
        try await fixture.database.transitionOutbox(id, from: [.uncertain], to: .uncertain, changes: [.uncertainSince(moved.uncertainSince!.addingTimeInterval(86_400))])
        _ = try await flusher.flush()
        #expect(try await item(id).state == .sent)
        #expect(fixture.api.state.withLock { $0.ownPostsSinceIDs } == [known.id])
        #expect(fixture.api.posted == ["after the bound"])
    }

    /// After an attempt that may have gone out, a later attempt keeps the earlier bound:
    /// one read afresh could already lie above the first attempt's post.
    @Test func aLaterAttemptKeepsTheEarliestBound() async throws {
        fixture.api.state.withLock { $0.duplicateCheck = false; $0.loseNextAnswer = true; $0.ownTweetsLagging = 1 }
        let first = Tweet(id: TweetID(1_800_000_000_000_000_000), authorID: UserID(7), createdAt: fixture.clock.now(), text: "first")
        try await fixture.database.storeOwnTweet(first, now: fixture.clock.now())
        let id = try await enqueue("twice")
        _ = try await flusher.flush()
        let newer = Tweet(id: TweetID(1_850_000_000_000_000_000), authorID: UserID(7), createdAt: fixture.clock.now(), text: "newer")
        try await fixture.database.storeOwnTweet(newer, now: fixture.clock.now())
        try await flushTwice()  // absent (lagging), sent again
        #expect(try await item(id).newestIDBeforeAttempt == first.id)
    }

    /// The own posts cannot be read (403): the status is sent again at once, and a
    /// duplicate answer makes it sent.
    @Test func aRefusedLookupSendsAgainAndADuplicateMakesItSent() async throws {
        fixture.api.state.withLock { $0.loseNextAnswer = true }
        let refused = APIError(kind: .rejected, status: 403, message: "Forbidden")
        fixture.api.state.withLock { $0.ownTweetsFailures = [refused, refused] }
        let id = try await enqueue("unreadable")
        try await flushTwice()
        let sent = try await item(id)
        #expect(sent.state == .sent)
        #expect(sent.sentTweetID == nil)
        #expect(sent.lastError?.kind == .sentAsDuplicate)
        #expect(sent.lastError?.description.hasPrefix(OutboxFailure.duplicateNote) == true)
        #expect(fixture.api.posted == ["unreadable"])
        #expect(fixture.sink.events("outbox.settled").contains { $0.contains("outcome=resend") })
    }

    /// The same refusal over an hour after the attempt (a restart the next day): the
    /// duplicate check covers recent posts only, so a resend could post it twice. It
    /// fails with the read's answer, nothing sent; `outbox retry` then sends it as new.
    @Test func anOldAttemptWhoseOwnPostsAreRefusedFailsInsteadOfBeingSentBlind() async throws {
        fixture.api.state.withLock { $0.loseNextAnswer = true; $0.duplicateCheck = false }
        let refused = APIError(kind: .rejected, status: 403, message: "Forbidden")
        fixture.api.state.withLock { $0.ownTweetsFailures = [refused] }
        let id = try await enqueue("said yesterday")
        _ = try await flusher.flush()
        #expect(try await item(id).state == .uncertain)
        fixture.clock.advance(by: 26 * 3600)
        _ = try await flusher.flush()
        let failed = try await item(id)
        #expect(failed.state == .failed)
        #expect(failed.lastError?.kind == .settlingFailed)
        #expect(failed.lastError?.description.contains("Forbidden") == true)
        #expect(fixture.api.posted == ["said yesterday"], "not sent again")
        #expect(fixture.sink.events("outbox.failed").count == 1)
        #expect(try await fixture.database.retryOutbox(id, now: fixture.clock.now()).state == .pending)
        _ = try await flusher.flush()
        #expect(try await item(id).state == .sent)
    }

    /// The same old attempt whose own posts are refused for a usage cap: a billing refusal
    /// never fails a status. It waits, uncertain, for the state's next probe, and nothing
    /// is sent again meanwhile.
    @Test func anOldAttemptWhoseOwnPostsAreRefusedForAUsageCapWaitsUncertain() async throws {
        let gate = BillingGateTests.gate(fixture.database, clock: fixture.clock)
        let held = try await fixture.outboxFlusher(gate: gate)
        fixture.api.state.withLock { $0.loseNextAnswer = true; $0.duplicateCheck = false }
        let body = Array(#"{"title":"UsageCapExceeded","period":"Monthly","scope":"Product","detail":"Usage cap exceeded: Monthly product cap","type":"https://api.twitter.com/2/problems/usage-capped"}"#.utf8)
        let capped = APIError(kind: .rateLimited, status: 429, message: "Too Many Requests", refusal: BillingRefusal.classify(status: 429, body: body))
        fixture.api.state.withLock { $0.ownTweetsFailures = [capped] }
        let id = try await enqueue("said yesterday, capped today")
        _ = try await held.flush()
        #expect(try await item(id).state == .uncertain)
        fixture.clock.advance(by: 26 * 3600)
        guard case .until(let until) = try await held.flush() else { Issue.record("no hold"); return }
        let waiting = try await item(id)
        #expect(waiting.state == .uncertain)
        #expect(waiting.lastError?.kind == .settlingHeld)
        #expect(until.timeIntervalSince(fixture.clock.now()) > 3_600, "held until the next probe")
        #expect(fixture.api.posted == ["said yesterday, capped today"], "not sent again")
        #expect(fixture.sink.events("outbox.failed").isEmpty)
    }

    /// The budget cannot pay for the settling read ($1.70 a month leaves $0.10 a day; a
    /// page of own posts is $0.50 at its worst). Within the hour of the attempt the status
    /// is sent again, and the API's duplicate answer proves it went out; past the hour a
    /// resend could post it twice, so it waits, uncertain, for a read the budget can pay.
    @Test(arguments: [false, true])
    func aReadTheBudgetCannotPayResendsOnlyWithinTheHour(late: Bool) async throws {
        let gate = BillingGateTests.gate(fixture.database, clock: fixture.clock, budget: MicroUSD(micros: 1_700_000))
        let held = try await fixture.outboxFlusher(gate: gate)
        fixture.api.state.withLock { $0.loseNextAnswer = true }
        let id = try await enqueue("over budget")
        _ = try await held.flush()
        #expect(try await item(id).state == .uncertain)
        fixture.clock.advance(by: late ? 2 * 3600 : 60)
        _ = try await held.flush()
        _ = try await held.flush()
        let settled = try await item(id)
        if late {
            #expect(settled.state == .uncertain)
            #expect(settled.lastError?.kind == .settlingHeld)
            #expect(!fixture.sink.events("outbox.settled").contains { $0.contains("outcome=resend") }, "not sent blind")
        } else {
            #expect(settled.state == .sent)
            #expect(settled.lastError?.kind == .sentAsDuplicate)
            #expect(fixture.sink.events("outbox.settled").contains { $0.contains("outcome=resend") })
        }
        #expect(fixture.api.posted == ["over budget"], "one post on the account")
    }

    @Test func aFailedLookupKeepsTheStatusUncertainAndTriesAgainLater() async throws {
        fixture.api.state.withLock { $0.duplicateCheck = false; $0.loseNextAnswer = true }
        fixture.api.state.withLock { $0.ownTweetsFailures = [APIError(kind: .transient, status: 0, message: "timeout")] }
        let id = try await enqueue("patient")
        try await flushTwice()
        #expect(try await item(id).state.rawValue == "uncertain")
        #expect(try await item(id).lastError?.kind == .settlingFailed)
        #expect(try await item(id).lastError?.description.hasPrefix("settling: no answer: timeout") == true)
        #expect(fixture.sink.events("outbox.settle_failed").count == 1)
        try await flushTwice()
        #expect(try await item(id).state == .sent)
        #expect(fixture.api.posted == ["patient"])
    }

    @Test func aConnectionRefusedIsDefiniteAndRetriedWithoutALookup() async throws {
        fixture.api.failNextPost(APIError.transport(TransportError(.connectionFailed, "Connection refused")))
        let id = try await enqueue("no line")
        try await flushTwice()
        #expect(try await item(id).state == .sent)
        #expect(fixture.api.state.withLock { $0.ownTweetsCalls } == 0)
    }
}
