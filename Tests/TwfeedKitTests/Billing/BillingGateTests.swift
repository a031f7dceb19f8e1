import Foundation
import Logging
import Testing
import TwfeedBilling
import TwfeedTesting
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore

/// The gate every billable request passes: the budget with its priorities, the probes,
/// the refusal states and their one log line each, kept across a restart.
struct BillingGateTests {
    static let noon = Date(timeIntervalSince1970: 1_796_040_000)  // 2026-11-30T12:00:00Z, a cycle's last day

    static func gate(
        _ database: AppDatabase,
        clock: ManualClock,
        budget: MicroUSD? = nil,
        readers: Set<BillingSource> = [.home, .mentions],
        sink: MemorySink = MemorySink()
    ) -> BillingGate {
        var api = TwfeedConfig.API()
        api.budget.monthlyUSD = budget
        let logger = Logger(label: "gate") { _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
        return BillingGate(database: database, config: api, clock: clock, logger: logger, readers: readers)
    }

    @Test func withoutABudgetEveryRequestGoesAtFullPages() async throws {
        let database = try AppDatabase.inMemory()
        let gate = Self.gate(database, clock: ManualClock(now: Self.noon))
        let answer = try await gate.admit(.home, perPost: MicroUSD(micros: 30_000), posts: 10...100)
        #expect(answer == .go(maxPosts: nil))
    }

    @Test func aBudgetSizesThePageAndTwoFeedsAtOnceCannotBothSpendWhatIsLeft() async throws {
        let database = try AppDatabase.inMemory()
        let clock = ManualClock(now: Self.noon)
        // $1.50 left on the cycle's last day: 50 posts at $0.03 worst case.
        let gate = Self.gate(database, clock: clock, budget: MicroUSD(micros: 1_500_000))
        let first = try await gate.admit(.home, perPost: MicroUSD(micros: 30_000), posts: 10...100)
        #expect(first == .go(maxPosts: 50))
        // Home's page is in flight: mentions may not count on the same money.
        let second = try await gate.admit(.mentions, perPost: MicroUSD(micros: 30_000), posts: 10...100)
        guard case .hold(let hold) = second else { Issue.record("mentions went too: \(second)"); return }
        #expect(hold.reason == .budget)
        #expect(hold.until == BillingCycle.endOfUTCDay(Self.noon))
        #expect(try await gate.current().state == .budgetLimited)
    }

    /// A read of history (a first backfill's gap read on) leaves the feed's own expected
    /// need for the rest of today to its new posts: what it spent yesterday, pro rata.
    @Test func historyLeavesTheFeedsOwnShareOfTheRestOfTheDay() async throws {
        let database = try AppDatabase.inMemory()
        let yesterday = Self.noon.addingTimeInterval(-86_400)
        // Home spent $0.60 yesterday: 120 post reads.
        let tweets = (1...120).map { Tweet(id: TweetID(Int64(1_000 + $0)), authorID: UserID(7), createdAt: yesterday, text: "t") }
        let page = TimelinePage(tweets: tweets, authors: [], nextPageToken: nil)
        try await database.storePage(page, feed: .home, state: SyncState(feed: .home), now: yesterday,
                                     bill: .page(page, source: .home, postKind: .postRead), prices: .published)
        // The cycle's last day, just after midnight: $1.50 left today.
        let clock = ManualClock(now: BillingCycle.endOfUTCDay(yesterday).addingTimeInterval(1))
        let gate = Self.gate(database, clock: clock, budget: MicroUSD(micros: 2_100_000), readers: [.home])
        #expect(try await gate.admit(.home, perPost: MicroUSD(micros: 30_000), posts: 10...100) == .go(maxPosts: 50))
        // Nearly a whole day to come: about $0.60 kept for home's new posts.
        #expect(try await gate.admit(.home, perPost: MicroUSD(micros: 30_000), posts: 10...100, history: true) == .go(maxPosts: 30))
    }

    @Test func theOutboxComesFirstQueuedPostsAreReservedBeforeAnyRead() async throws {
        let database = try AppDatabase.inMemory()
        let clock = ManualClock(now: Self.noon)
        // $0.30: a queued post with a URL ($0.20) leaves $0.10 for reads: 3 posts at
        // $0.03, fewer than the 10 a page must hold.
        _ = try await database.enqueue(text: "read this: https://example.com", replyTo: nil, now: clock.now())
        let gate = Self.gate(database, clock: clock, budget: MicroUSD(micros: 300_000))
        let read = try await gate.admit(.home, perPost: MicroUSD(micros: 30_000), posts: 10...100)
        guard case .hold = read else { Issue.record("the read took the post's money: \(read)"); return }
        let post = try await gate.admit(.outbox, perPost: MicroUSD(micros: 200_000), posts: 1...1)
        #expect(post == .go(maxPosts: nil))
    }

    @Test func outOfCreditsLetsOneProbeThroughPerRecheckAndLogsEachChangeOnce() async throws {
        let database = try AppDatabase.inMemory()
        let clock = ManualClock(now: Self.noon)
        let sink = MemorySink()
        let gate = Self.gate(database, clock: clock, sink: sink)
        let hold = try await gate.refused(.creditsDepleted(detail: "no credits"), source: .home)
        #expect(hold.reason == .billing(.outOfCredits))
        #expect(hold.until == Self.noon.addingTimeInterval(15 * 60))
        let again = try await gate.admit(.mentions, perPost: .zero, posts: 1...100)
        #expect(again == .hold(.init(until: hold.until, reason: .billing(.outOfCredits), detail: "no credits")))
        clock.advance(by: 15 * 60)
        // The outbox leaves the due probe to a feed (a since_id read costs nothing).
        guard case .hold = try await gate.admit(.outbox, perPost: MicroUSD(micros: 15_000), posts: 1...1) else {
            Issue.record("the outbox probed while a feed could"); return
        }
        // So do the lookups: up to 100 paid posts, where a feed's probe is free.
        guard case .hold = try await gate.admit(.lookups, perPost: MicroUSD(micros: 30_000), posts: 1...100) else {
            Issue.record("the lookups probed while a feed could"); return
        }
        #expect(try await gate.admit(.home, perPost: .zero, posts: 1...100) == .go(maxPosts: nil))
        guard case .hold = try await gate.admit(.mentions, perPost: .zero, posts: 1...100) else {
            Issue.record("a second probe went out"); return
        }
        _ = try await gate.refused(.creditsDepleted(detail: "no credits"), source: .home)
        #expect(sink.events("billing.state").count == 1)

        // A restart remembers the state and when the last probe went.
        let restarted = Self.gate(database, clock: clock, sink: sink)
        #expect(try await restarted.current().state == .outOfCredits)
        guard case .hold = try await restarted.admit(.home, perPost: .zero, posts: 1...100) else {
            Issue.record("a restart probed at once"); return
        }
        clock.advance(by: 15 * 60)
        #expect(try await restarted.admit(.home, perPost: .zero, posts: 1...100) == .go(maxPosts: nil))
        try await restarted.answered(.home)
        #expect(try await restarted.current().state == .ok)
        #expect(sink.events("billing.state").count == 2)
    }

    /// Two feeds poll at once: home's page is refused for the spend cap while mentions'
    /// page, admitted before, is still on its way. Its success came from before the cap
    /// and does not end the state (it did, and every feed asked again at once); the
    /// probe's success, after the reset, does.
    @Test func aSuccessSentBeforeARefusalDoesNotEndTheState() async throws {
        let database = try AppDatabase.inMemory()
        let clock = ManualClock(now: Self.noon)
        let sink = MemorySink()
        let gate = Self.gate(database, clock: clock, sink: sink)
        #expect(try await gate.admit(.home, perPost: .zero, posts: 1...100) == .go(maxPosts: nil))
        #expect(try await gate.admit(.mentions, perPost: .zero, posts: 1...100) == .go(maxPosts: nil))
        let reset = BillingCycle.endOfUTCDay(Self.noon)
        let hold = try await gate.refused(.spendCapReached(resetDate: reset, detail: "capped"), source: .home)
        #expect(hold.until == reset)
        try await gate.answered(.mentions)
        #expect(try await gate.current().state == .spendCap, "mentions' page left before the cap")
        guard case .hold = try await gate.admit(.mentions, perPost: .zero, posts: 1...100) else {
            Issue.record("mentions asked again before the reset"); return
        }
        clock.advance(to: reset)
        #expect(try await gate.admit(.mentions, perPost: .zero, posts: 1...100) == .go(maxPosts: nil))
        try await gate.answered(.mentions)
        #expect(try await gate.current().state == .ok)
        #expect(sink.events("billing.state").count == 2, "one line on entering, one on leaving")
    }
}
