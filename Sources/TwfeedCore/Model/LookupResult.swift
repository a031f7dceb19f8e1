/// What a lookup by ids found: the posts that exist (as `page.tweets`, with what they
/// point at in `page.referencedTweets` and their authors), and the ids the API says are
/// gone, with its reason ("Not Found Error: …", "Authorization Error: …" — deleted,
/// protected, suspended).
package struct LookupResult: Sendable {
    package var page: TimelinePage
    package var unavailable: [TweetID: String]

    package init(page: TimelinePage, unavailable: [TweetID: String] = [:]) {
        self.page = page
        self.unavailable = unavailable
    }

    /// How many ids one lookup may ask for (v2 `GET /2/tweets?ids=`, v1.1
    /// `statuses/lookup`): both dialects take 1 to 100.
    package static let maxIDs = 100
}
