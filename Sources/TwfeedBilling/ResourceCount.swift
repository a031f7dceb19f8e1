/// How many billable resources of each kind one answer, one source or one day returned.
///
/// The ledger keeps counts, not dollars, because the API bills per resource and its rates
/// change: a day's counts can be priced again at corrected rates, and `twfeed usage`
/// shows both the counts and what they cost.
package struct ResourceCount: Hashable, Sendable {
    package var postReads: Int
    package var ownedReads: Int
    package var userReads: Int
    /// Plain posts (`post_create`).
    package var posts: Int
    package var postsWithURL: Int
    package var postsSummoned: Int
    /// Deletions of the account's posts (`post_delete`).
    package var postsDeleted: Int
    package var uploads: Int

    package static let zero = ResourceCount()

    package init(
        postReads: Int = 0,
        ownedReads: Int = 0,
        userReads: Int = 0,
        posts: Int = 0,
        postsWithURL: Int = 0,
        postsSummoned: Int = 0,
        postsDeleted: Int = 0,
        uploads: Int = 0
    ) {
        self.postReads = postReads
        self.ownedReads = ownedReads
        self.userReads = userReads
        self.posts = posts
        self.postsWithURL = postsWithURL
        self.postsSummoned = postsSummoned
        self.postsDeleted = postsDeleted
        self.uploads = uploads
    }

    /// `count` resources of one kind.
    package init(_ kind: BillableKind, _ count: Int) {
        self.init()
        self[kind] = count
    }

    package subscript(kind: BillableKind) -> Int {
        get {
            switch kind {
            case .postRead: postReads
            case .ownedRead: ownedReads
            case .userRead: userReads
            case .postCreate: posts
            case .postCreateWithURL: postsWithURL
            case .postCreateSummoned: postsSummoned
            case .postDelete: postsDeleted
            case .mediaUpload: uploads
            }
        }
        set {
            switch kind {
            case .postRead: postReads = newValue
            case .ownedRead: ownedReads = newValue
            case .userRead: userReads = newValue
            case .postCreate: posts = newValue
            case .postCreateWithURL: postsWithURL = newValue
            case .postCreateSummoned: postsSummoned = newValue
            case .postDelete: postsDeleted = newValue
            case .mediaUpload: uploads = newValue
            }
        }
    }

    /// Nothing billable: an empty page, a failed answer, a `since_id` poll with nothing new.
    package var isEmpty: Bool {
        BillableKind.allCases.allSatisfy { self[$0] == 0 }
    }

    /// What these resources cost at `prices`.
    package func cost(at prices: Prices) -> MicroUSD {
        BillableKind.allCases.reduce(MicroUSD.zero) { $0 + prices.price(of: $1) * self[$1] }
    }

    package static func + (lhs: ResourceCount, rhs: ResourceCount) -> ResourceCount {
        var sum = lhs
        sum += rhs
        return sum
    }

    package static func += (lhs: inout ResourceCount, rhs: ResourceCount) {
        for kind in BillableKind.allCases {
            // Saturating, like MicroUSD: a count is never worth a crash.
            let (sum, overflow) = lhs[kind].addingReportingOverflow(rhs[kind])
            lhs[kind] = overflow ? (rhs[kind] > 0 ? .max : .min) : sum
        }
    }
}
