import Foundation
import TwfeedBilling
import TwfeedCore
import TwfeedStore

/// Buys the authors an answer left out, before the answer is stored: a post is read
/// once, so one stored without its author shows without a name (the reader, `feed
/// --json`, `show --json`) until some later answer happens to bring that author.
///
/// v2 timelines ask for no author expansion (each user in `includes.users` is billed
/// once per UTC day however long it has been stored), and an answer that expands them
/// (a lookup by id, `GET /2/tweets?ids=`) may still leave a user out. So the authors of
/// an answer's posts (and of the posts they point at) that are neither in it nor stored
/// fresh (within `images.revalidateDays`) are looked up, 100 a request
/// (`GET /2/users?ids=`), and stored and charged with the answer in one transaction,
/// each a user read: what the expansion would have cost, less every author already
/// stored. v1.1 embeds each status's user and has no lookup of users here
/// (`TwitterAPI.authorsOnRequest`).
///
/// One value, built once by the daemon (`Daemon.build`) and handed to the pollers
/// (`FeedSyncer`, charged to the feed) and the graph fetcher (`TweetFetcher`, charged to
/// `lookups`), so that both buy an author by one rule.
package struct AuthorLookup: Sendable {
    let api: any TwitterAPI
    let database: AppDatabase
    let clock: any WallClock
    let prices: Prices
    /// Told how each lookup was answered; nil when nothing is billed (tests of the sync alone).
    let gate: BillingGate?
    /// How long a stored author counts as fresh, in seconds (`images.revalidateDays`).
    let freshFor: TimeInterval

    /// What one answer's authors came to.
    struct Outcome: Sendable, Equatable {
        /// Authors of its posts that it left out: looked up unless stored fresh.
        var wanted = 0
        /// Authors asked of the API.
        var lookedUp = 0
        /// Authors not stored fresh that were not asked for: the read's admission did not
        /// cover them, or the API refused the lookup. The answer is stored without them.
        var skipped = 0
        /// The API refused a lookup for money or entitlement: the gate's state, until
        /// when. Nothing more was asked; the caller decides what becomes of the answer.
        var hold: BillingGate.Hold?
    }

    /// Adds to `page` the authors it left out and to `bill` their user reads, asked of the
    /// gate as `source`, the source the answer was read for.
    ///
    /// Never past the budget: the authors are paid from what the gate admitted the read
    /// at (its worst case counts two users a post, `BillingTerms.worstCase(perPostOf:)`),
    /// less the worst case of the answer itself (`bill`), the page's own posts' authors
    /// first; the ones that do not fit are not looked up, and the answer is stored
    /// without them. A billing refusal is not asked again here: it becomes the gate's
    /// state and `Outcome.hold`.
    func complete(_ page: inout TimelinePage, bill: inout BillableAnswer, for source: BillingSource) async throws -> Outcome {
        guard api.authorsOnRequest else { return Outcome() }
        var wanted: [UserID] = []
        var seen = Set(page.authors.map(\.id))
        for tweet in page.tweets + page.referencedTweets where seen.insert(tweet.authorID).inserted {
            wanted.append(tweet.authorID)
        }
        var outcome = Outcome(wanted: wanted.count)
        guard !wanted.isEmpty else { return outcome }
        let fresh = try await database.freshUsers(wanted, since: clock.now().addingTimeInterval(-freshFor))
        var missing = wanted.filter { !fresh.contains($0) }
        if let affordable = await affordable(beside: bill, for: source), affordable < missing.count {
            outcome.skipped = missing.count - affordable
            missing = Array(missing.prefix(affordable))
        }
        var found: [Author] = []
        for start in stride(from: 0, to: missing.count, by: 100) {
            let chunk = Array(missing[start..<min(start + 100, missing.count)])
            do {
                found += try await api.users(ids: chunk).authors
                try await gate?.answered(source)
                outcome.lookedUp += chunk.count
            } catch let error as APIError {
                guard let refusal = error.refusal, let gate else { throw error }
                outcome.hold = try await gate.refused(refusal, source: source)
                outcome.skipped += missing.count - start
                break
            }
        }
        page.authors += found
        bill.read(.userRead, found.map { $0.id.rawValue })
        return outcome
    }

    /// How many authors the read's admission still pays for beside an answer whose
    /// charge is `bill`; nil when no budget bounds the read.
    private func affordable(beside bill: BillableAnswer, for source: BillingSource) async -> Int? {
        guard let gate, let admitted = await gate.admitted(source) else { return nil }
        let left = (admitted - bill.resources.cost(at: prices)).clampedToZero
        guard prices.userRead.micros > 0 else { return nil }
        return Int(min(left.micros / prices.userRead.micros, Int64(Int.max / 2)))
    }
}
