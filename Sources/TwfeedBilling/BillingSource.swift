/// What part of twfeed spent the money, so `twfeed usage` can say where a day's dollars
/// went and the budget can decide who gives way first when money runs short.
///
/// The raw values are the keys of `usage --json`'s `sources` object and the `source`
/// label of `twfeed_api_spend_usd_total`; the cases are declared in the ledger's order.
package enum BillingSource: String, CaseIterable, Sendable, Hashable {
    /// The home timeline poll.
    case home
    /// The mentions poll.
    case mentions
    /// The retweets-of-me poll.
    case retweets
    /// Posts fetched by id (what a tweet points at, `twfeed fetch`, gap filling).
    case lookups
    /// Posting queued statuses.
    case outbox
    /// Reading the user's own posts to settle a post whose answer was lost.
    case settlement
    /// The who-am-I call (`GET /2/users/me`) whose id every timeline path needs.
    case account

    /// The order in which sources get what is left of a day's allowance, most important
    /// first. What the user wrote (outbox) comes before anything read, and settling a
    /// lost post comes next because a wrong guess there means a duplicate or a lost post;
    /// mentions are people talking to the user, so they beat home; retweets and lookups
    /// are the first to give way. `account` leads: it costs one user read, happens once
    /// per start, and every read after it needs its answer.
    package static let budgetPriority: [BillingSource] = [
        .account, .outbox, .settlement, .mentions, .home, .retweets, .lookups,
    ]

    /// This source's place in `budgetPriority`: 0 is served first.
    package var budgetRank: Int {
        // budgetPriority lists every case, so the lookup never fails.
        Self.budgetPriority.firstIndex(of: self) ?? Self.budgetPriority.count
    }

    /// What kind of request this source makes, which decides what a usage cap stops.
    package var action: BillableAction {
        self == .outbox ? .post : .read
    }
}
