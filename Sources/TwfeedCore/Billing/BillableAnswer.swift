import Foundation
import TwfeedBilling

/// What one successful API answer returned, as the pay-per-use API bills it: the posts
/// and users it handed out (each charged once per UTC day, at the price of the day's
/// first read, so the ids are kept for the ledger's deduplication) and the posts it
/// created (never deduplicated).
///
/// Built by the daemon from what it parsed, recorded by the store in the same
/// transaction as what the answer stored, so a crash never counts an answer twice or
/// loses one.
package struct BillableAnswer: Sendable, Equatable {
    package var source: BillingSource
    /// Ids read, per kind, each at most once (the API bills a resource once per answer).
    package private(set) var reads: [BillableKind: [Int64]] = [:]
    /// The kinds in the order the answer holds them (its own posts first, then what they
    /// include): a post that is both, at two prices, is charged at the first.
    package private(set) var readOrder: [BillableKind] = []
    /// Posts created, one entry each.
    package var created: [BillableKind] = []

    package init(source: BillingSource) {
        self.source = source
    }

    /// Resources this answer returned twice under one kind (a post in `data` that is also
    /// another's parent in `includes`): charged once, the second free, as a repeat.
    package private(set) var repeatsInAnswer: [BillableKind: Int] = [:]

    /// Adds `ids` read as `kind`, counting any already in this answer under that kind as
    /// a repeat rather than a second read.
    package mutating func read(_ kind: BillableKind, _ ids: some Sequence<Int64>) {
        if reads[kind] == nil { readOrder.append(kind) }
        var list = reads[kind] ?? []
        var seen = Set(list)
        for id in ids {
            if seen.insert(id).inserted { list.append(id) } else { repeatsInAnswer[kind, default: 0] += 1 }
        }
        reads[kind] = list
    }

    /// "Answers that return no data cost nothing."
    package var isEmpty: Bool { reads.values.allSatisfy(\.isEmpty) && created.isEmpty }

    /// The worst case: every resource counted, as if none had been billed earlier today.
    package var resources: ResourceCount {
        var count = ResourceCount.zero
        for (kind, ids) in reads { count[kind] += ids.count }
        for kind in created { count[kind] += 1 }
        return count
    }

    /// A timeline page as the API bills it: the feed's posts (`data`) at `postKind`,
    /// referenced posts (`includes.tweets`) at the post read price, and the authors
    /// (`includes.users`) at the user read price.
    package static func page(_ page: TimelinePage, source: BillingSource, postKind: BillableKind = .postRead) -> BillableAnswer {
        var answer = BillableAnswer(source: source)
        answer.read(postKind, page.tweets.map { $0.id.rawValue })
        answer.read(.postRead, page.referencedTweets.map { $0.id.rawValue })
        answer.read(.userRead, page.authors.map { $0.id.rawValue })
        return answer
    }

    /// The price kind of a feed's own posts: mentions are owned reads when the account
    /// owns the developer app; home and retweets-of-me are always normal reads.
    package static func postKind(of feed: Feed, ownsApp: Bool) -> BillableKind {
        feed == .mentions && ownsApp ? .ownedRead : .postRead
    }
}
