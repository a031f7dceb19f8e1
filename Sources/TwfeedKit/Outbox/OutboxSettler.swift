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
    /// made. `created_at` is whole seconds, cut down, on the server's clock (1 s), and
    /// that clock may run behind ours (up to 2 minutes allowed for). A wider margin only
    /// risks taking an identical tweet posted just before the attempt for ours, which the
    /// API's own duplicate check would have refused anyway.
    static let marginSeconds: Double = 121

    /// The tweet the status became, or nil when none of the account's recent tweets
    /// created since `since` (minus the margin) has its text. Throws the API's error when
    /// the tweets cannot be read.
    func find(_ item: OutboxItem, since: Date) async throws -> Tweet? {
        let userID = try await accountID()
        let earliest = since.addingTimeInterval(-Self.marginSeconds)
        let wanted = Self.normalized(item.text)
        // Oldest first: the first tweet after the attempt is the one it made.
        let page = try await api.ownPosts(userID: userID)
        // The own posts are owned reads when the account owns the app; what they include
        // is charged at its own price. Charged to `settlement`, whatever the search finds.
        try await database.recordSpend(
            .page(page, source: .settlement, postKind: terms.ownsApp ? .ownedRead : .postRead),
            prices: terms.prices,
            now: clock.now()
        )
        for tweet in page.tweets.sorted(by: { $0.id < $1.id }) {
            guard tweet.createdAt >= earliest, tweet.retweetOfID == nil, Self.normalized(tweet.text) == wanted else { continue }
            if let replyTo = item.replyToID, let answered = tweet.inReplyToID, answered != replyTo { continue }
            // Two statuses with the same text (no duplicate check) settle on two tweets.
            if try await database.outboxClaims(tweet.id) { continue }
            return tweet
        }
        return nil
    }

    /// The text as the API keeps it, for comparing: NFC, without surrounding white
    /// space. The clients have already decoded the entities the API escapes (`&amp;`
    /// `&lt;` `&gt;`, `TextCleaning`), so both sides are what the author typed.
    static func normalized(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func accountID() async throws -> UserID {
        if let account = try await database.account() { return account.userID }
        return try await api.me().id
    }
}
