import TwfeedCore

extension V2Client {
    /// `GET /2/tweets?ids=` with everything expanded (`fields`: authors, what the posts
    /// point at and their authors, media). The API answers the posts it has in `data` and
    /// one partial error per id it will not give (`resource_id`, `title`, `detail`).
    func tweets(ids: [TweetID]) async throws -> LookupResult {
        let ids = LookupResult.checked(ids)
        guard !ids.isEmpty else { return LookupResult(page: TimelinePage(tweets: [], authors: [], nextPageToken: nil)) }
        let (body, rateLimit, _) = try await requester.get(
            "/2/tweets",
            query: [("ids", ids.map(\.description).joined(separator: ","))] + Self.fields
        )
        var page = try Self.page(body, rateLimit: rateLimit)
        page.nextPageToken = nil
        return LookupResult(page: page, unavailable: Self.unavailable(body, found: page))
    }

    /// The posts the answer's partial `errors` say are gone, with the reason as
    /// "TITLE: DETAIL" ("Not Found Error: Could not find tweet with ids: [1].",
    /// "Authorization Error: Sorry, you are not authorized to see the Tweet with ids:
    /// [1]."). That covers the ids asked for and the posts they point at that are gone
    /// (`referenced_tweets.id`): the API has said so either way. Errors about other
    /// resources (a user) and ids the answer holds after all are left out.
    static func unavailable(_ body: JSONValue, found page: TimelinePage) -> [TweetID: String] {
        let present = Set(page.tweets.map(\.id)).union(page.referencedTweets.map(\.id))
        var result: [TweetID: String] = [:]
        for error in body["errors"]?.array ?? [] {
            if let type = error["resource_type"]?.string, type != "tweet", type != "post" { continue }
            guard let id = (error["resource_id"] ?? error["value"])?.idText.flatMap(TweetID.init), !present.contains(id) else {
                continue
            }
            let title = error["title"]?.string ?? ""
            let detail = error["detail"]?.string ?? ""
            let reason = [title, detail].filter { !$0.isEmpty }.joined(separator: ": ")
            result[id] = reason.isEmpty ? "Unavailable" : reason
        }
        return result
    }
}

extension LookupResult {
    /// The ids a lookup sends: each once, in the order given. More than `maxIDs` is the
    /// caller's error, not something to split here: one call is one request, one answer
    /// and one bill, which the caller charges whole (a call split in two whose second
    /// request failed would have paid for a first answer it never stored).
    static func checked(_ ids: [TweetID]) -> [TweetID] {
        var seen: Set<TweetID> = []
        let unique = ids.filter { seen.insert($0).inserted }
        precondition(unique.count <= maxIDs, "a lookup takes at most \(maxIDs) ids; batch them")
        return unique
    }
}
