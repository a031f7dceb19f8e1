import Foundation
import TwfeedBilling
import TwfeedCore
import TwfeedStore

/// Finds a status among the account's own recent tweets: how the outbox learns whether
/// an attempt without a definite answer went out, instead of sending it again and
/// trusting the API's duplicate check (whose window is limited, and which a recurring
/// "gm" defeats).
struct OutboxSettler: Sendable {
    let api: any TwitterAPI
    let database: AppDatabase
    var clock: any WallClock = SystemClock()
    var terms = BillingTerms()

    /// How far before the attempt's start a tweet may be dated and still be the one it
    /// made, when settling by time (only a status with no id bound: attempted before v12,
    /// or with nothing stored yet). `created_at` is whole seconds, cut down, on the
    /// server's clock (1 s), and that clock may run behind ours (up to 2 minutes allowed
    /// for). A server whose clock is hours off defeats it: hence the id bound.
    static let marginSeconds: Double = 121

    /// The tweet the status became, or nil when none of the account's own posts made
    /// after its earliest attempt has its text. Throws the API's error when the posts
    /// cannot be read.
    ///
    /// "After the attempt" is read on the server's clock, not ours: the own posts are
    /// asked for with `since_id` = the newest tweet id twfeed knew before that attempt
    /// (`OutboxItem.newestIDBeforeAttempt`), and only posts with a larger id count. Ids
    /// are snowflakes, the milliseconds of the server that made them in their high bits,
    /// and every id stored was made before twfeed read it, so before the attempt: the
    /// status, if it went out, has a larger id however far apart the two clocks are. No
    /// `created_at` is compared. Without a bound, the old rule: `created_at` on or after
    /// the attempt's start on our clock, minus `marginSeconds`.
    func find(_ item: OutboxItem, since: Date) async throws -> Tweet? {
        let userID = try await accountID()
        let bound = item.newestIDBeforeAttempt
        let earliest = since.addingTimeInterval(-Self.marginSeconds)
        // One page, newest first. With a bound it holds only what came after the
        // attempt: a handful of posts at most (and a free empty answer when none).
        let page = try await api.ownPosts(userID: userID, sinceID: bound)
        // The own posts are owned reads when the account owns the app; what they include
        // is charged at its own price. Charged to `settlement`, whatever the search finds.
        try await database.recordSpend(
            .page(page, source: .settlement, postKind: terms.ownsApp ? .ownedRead : .postRead),
            prices: terms.prices,
            now: clock.now()
        )
        // Oldest first: the first post after the attempt is the one it made.
        for tweet in page.tweets.sorted(by: { $0.id < $1.id }) {
            if let bound {
                guard tweet.id > bound else { continue }
            } else {
                guard tweet.createdAt >= earliest else { continue }
            }
            guard tweet.retweetOfID == nil, PostedText.matches(tweet, typed: item.text) else { continue }
            if let replyTo = item.replyToID, let answered = tweet.inReplyToID, answered != replyTo { continue }
            // Two statuses with the same text (no duplicate check) settle on two tweets.
            if try await database.outboxClaims(tweet.id) { continue }
            return tweet
        }
        return nil
    }

    /// The text as the API keeps it, for comparing: NFC, without surrounding white
    /// space. The clients have already decoded the entities the API escapes (`&amp;`
    /// `&lt;` `&gt;`, `TextCleaning`); `PostedText` puts back the links and the long
    /// text, so both sides are what the author typed.
    static func normalized(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The stored account's id; before the daemon has stored one, `users/me`, charged to
    /// `settlement` as the user read it is (the ledger misses no answer the API bills).
    private func accountID() async throws -> UserID {
        if let account = try await database.account() { return account.userID }
        let me = try await api.me()
        var bill = BillableAnswer(source: .settlement)
        bill.read(.userRead, [me.id.rawValue])
        try await database.recordSpend(bill, prices: terms.prices, now: clock.now())
        return me.id
    }
}
