/// What one answer handed out, as the pay-per-use bill counts it. The route that builds
/// the answer fills it in, so billing never re-reads the JSON it wrote (and costs what
/// the answer holds, not what the network holds).
struct ServedResources: Sendable {
    /// The posts the answer is about: v2 `data` (a page, a lookup), v1.1's statuses.
    private(set) var posts: [UInt64] = []
    /// Whether `posts` are the account's own mentions or own posts, read by the account
    /// itself: the owned read price applies to them when the account owns the app.
    var ownedTimeline = false
    /// Posts that came along: v2 `includes.tweets`, v1.1 `retweeted_status` and
    /// `quoted_status`. Each once per answer.
    private(set) var includedPosts: [UInt64] = []
    /// Users: v2 `includes.users` or `GET /2/users/me`'s `data`, v1.1 user objects (not
    /// `trim_user` stubs, which hold no user data). Each once per answer.
    private(set) var users: [UInt64] = []
    /// The kind of post a `POST` created (`postCreate`, `postCreateWithURL` or
    /// `postCreateSummoned`); nil when it created none.
    var created: EmulatorResourceKind?
    /// Another write the request made and is billed for (`postDelete`, `mediaUpload`); nil
    /// when none.
    var performed: EmulatorResourceKind?

    private var includedSet: Set<UInt64> = []
    private var userSet: Set<UInt64> = []

    mutating func addPost(_ id: UInt64) { posts.append(id) }

    mutating func addIncludedPost(_ id: UInt64) {
        if includedSet.insert(id).inserted { includedPosts.append(id) }
    }

    mutating func addUser(_ id: UInt64) {
        if userSet.insert(id).inserted { users.append(id) }
    }

    /// Nothing to bill: "answers that return no data cost nothing".
    var isEmpty: Bool { posts.isEmpty && includedPosts.isEmpty && users.isEmpty && created == nil && performed == nil }
}
