import TwfeedBilling
import TwfeedCore
import TwfeedStore

/// What the account pays, from the config: the prices and whether it owns the developer
/// app (which makes its mentions owned reads). Handed to everything that calls the API
/// so each answer's cost is recorded with what it stored.
package struct BillingTerms: Sendable, Equatable {
    package var prices: Prices
    package var ownsApp: Bool

    package init(prices: Prices = .published, ownsApp: Bool = true) {
        self.prices = prices
        self.ownsApp = ownsApp
    }

    package init(_ api: TwfeedConfig.API) {
        self.init(prices: api.prices, ownsApp: api.ownsApp)
    }

    /// The source a feed's polls are charged to.
    package static func source(of feed: Feed) -> BillingSource {
        BillingSource(feed)
    }

    /// The most one post of a read can cost: the post at `kind`'s price, its author and
    /// the author of what it references (`includes.users`), and a referenced post
    /// (`includes.tweets`). Most posts cost far less; the budget is checked at the worst
    /// case so it cannot be passed, and pages are sized by it.
    package func worstCase(perPostOf kind: BillableKind) -> MicroUSD {
        prices.price(of: kind) + prices.userRead * 2 + prices.postRead
    }

    /// A page of `feed` as the API bills it.
    package func bill(_ page: TimelinePage, feed: Feed) -> BillableAnswer {
        .page(page, source: Self.source(of: feed), postKind: BillableAnswer.postKind(of: feed, ownsApp: ownsApp))
    }

    /// A lookup by ids as the API bills it, charged to `.lookups`: every post found and
    /// every post it points at (`includes.tweets`, v1.1's embedded statuses) at the post
    /// read price (`GET /2/tweets` is a normal read, never an owned one), every author at
    /// the user price. The ids that came back unavailable cost nothing; media are not
    /// billed.
    package func bill(lookup: LookupResult) -> BillableAnswer {
        .page(lookup.page, source: .lookups, postKind: .postRead)
    }
}

extension BillingTerms {
    /// What posting `text` (replying to `replyTo`) costs: summoned when the post replied
    /// to is in the account's mentions, as far as the store knows.
    package func postPricing(text: String, replyTo: TweetID?, database: some StoreReading) async throws -> PostPricing {
        PostPricing(text: text, summoned: try await database.summons(replyTo), prices: prices)
    }

    /// What sending a queued status will cost, as far as it is known: a post at its
    /// price and each photo's upload (unpublished: `mediaUpload`, 0 unless configured),
    /// or a deletion at `postDelete`. What the budget keeps back for the queue.
    package func price(ofQueued item: OutboxItem, database: some StoreReading) async throws -> MicroUSD {
        switch item.kind {
        case .delete:
            return prices.postDelete
        case .post:
            let post = try await postPricing(text: item.text, replyTo: item.replyToID, database: database).price
            return post + prices.mediaUpload * item.photos.filter { $0.mediaID == nil }.count
        }
    }

    /// The charge for one sent status, to the outbox.
    package func postBill(for item: OutboxItem, database: some StoreReading) async throws -> BillableAnswer {
        var bill = BillableAnswer(source: .outbox)
        bill.created = [try await postPricing(text: item.text, replyTo: item.replyToID, database: database).kind]
        return bill
    }
}
