import Foundation
import TwfeedBase
import TwfeedCore

/// The legacy v1.1 endpoints, for enterprise access and compatible servers.
///
/// Every read asks `tweet_mode=extended` (`full_text`, up to 280) and
/// `include_ext_alt_text=true` (photos' alt text, which v1.1 gives only when asked).
/// v1.1 knows no long posts: it has no `note_tweet`, so `full_text` (cut at 280) is all
/// it gives of a post over 280; the whole text comes only through v2.
struct V11Client: TwitterAPI {
    /// Asked on every read that returns statuses.
    static let readParameters: [(String, String)] = [("tweet_mode", "extended"), ("include_ext_alt_text", "true")]

    let requester: SignedRequester
    var dialect: TwfeedConfig.Dialect { .v1_1 }

    func me() async throws -> Author {
        let (body, rateLimit, _) = try await requester.get("/1.1/account/verify_credentials.json", query: [])
        guard let author = Self.author(body) else {
            throw APIError.malformed("no user in verify_credentials", status: 200, rateLimit: rateLimit)
        }
        return author
    }

    func supportsSinceID(_ feed: Feed) -> Bool { true }

    func post(text: String, replyTo: TweetID?, mediaIDs: [String]) async throws -> TweetID {
        var form = [("status", text)]
        if let replyTo { form.append(("in_reply_to_status_id", replyTo.description)) }
        if !mediaIDs.isEmpty { form.append(("media_ids", mediaIDs.joined(separator: ","))) }
        let (body, rateLimit, _) = try await requester.post("/1.1/statuses/update.json", form: form)
        guard let id = body["id_str"]?.string.flatMap(TweetID.init) else {
            throw APIError.malformed("no id_str in the answer to statuses/update", status: 200, rateLimit: rateLimit)
        }
        return id
    }

    /// v1.1's media upload was retired in 2025: refused here, before any request (the
    /// CLI refuses `--photo` in v1.1 already; this is the daemon's own guard).
    static let uploadRetired = APIError(
        kind: .rejected,
        status: 0,
        message: "the v1.1 media upload is retired: set api.dialect to v2 to post photos",
        mayHaveArrived: false
    )

    func uploadMedia(_ bytes: Data, type mime: String, fileName: String) async throws -> (mediaID: String, expiresAfter: Double?) {
        throw Self.uploadRetired
    }

    func setAltText(mediaID: String, text: String) async throws { throw Self.uploadRetired }

    /// `POST statuses/destroy/:id.json`: answers the deleted status.
    func deleteTweet(_ id: TweetID) async throws {
        _ = try await requester.post("/1.1/statuses/destroy/\(id).json", form: [])
    }

    func ownPosts(userID: UserID, sinceID: TweetID?) async throws -> TimelinePage {
        var query = [("user_id", userID.description), ("count", "200")] + Self.readParameters
        if let sinceID { query.append(("since_id", sinceID.description)) }
        let (body, rateLimit, _) = try await requester.get("/1.1/statuses/user_timeline.json", query: query)
        return try Self.page(body, rateLimit: rateLimit)
    }

    static func pageSize(_ feed: Feed) -> Int { feed == .retweets ? 100 : 200 }

    /// The `count` each timeline accepts.
    static func pageBounds(_ feed: Feed) -> ClosedRange<Int> { 1...pageSize(feed) }

    var authorsOnRequest: Bool { false }

    /// Not used: v1.1 statuses embed their users (see `authorsOnRequest`).
    func users(ids: [UserID]) async throws -> (authors: [Author], rateLimit: RateLimit?) { ([], nil) }

    /// `statuses/user_timeline` without the account's retweets, 200 a page (or
    /// `maxResults`), paged by `max_id`; every status carries `retweet_count`.
    func ownOriginals(userID: UserID, query: TimelineQuery) async throws -> TimelinePage {
        let count = min(max(query.maxResults ?? 200, 1), 200)
        var parameters: [(String, String)] =
            [
                ("user_id", userID.description), ("count", String(count)), ("include_rts", "false"),
            ] + Self.readParameters
        if let token = query.pageToken { parameters.append(("max_id", token)) }
        let (body, rateLimit, _) = try await requester.get("/1.1/statuses/user_timeline.json", query: parameters)
        var page = try Self.page(body, rateLimit: rateLimit)
        for status in body.array ?? [] {
            if let id = status["id_str"]?.string.flatMap(TweetID.init), let count = status["retweet_count"]?.int {
                page.retweetCounts[id] = count
            }
        }
        if page.tweets.isEmpty { page.nextPageToken = nil }
        return page
    }

    /// v1.1 pages by `max_id` (inclusive). The page token is the next `max_id`: one
    /// below the oldest tweet of the page. An empty page ends the walk; a short page
    /// does not (deleted tweets are removed after the page is cut).
    func timeline(_ feed: Feed, userID: UserID, query: TimelineQuery) async throws -> TimelinePage {
        let path: String
        switch feed {
        case .home: path = "/1.1/statuses/home_timeline.json"
        case .mentions: path = "/1.1/statuses/mentions_timeline.json"
        case .retweets: path = "/1.1/statuses/retweets_of_me.json"
        case .posts, .likes: preconditionFailure("the archive's feed \(feed.rawValue) is never polled")
        }
        let size = Self.pageBounds(feed).clamped(query.maxResults ?? Self.pageSize(feed))
        var parameters: [(String, String)] = [("count", String(size))] + Self.readParameters
        if let since = query.sinceID { parameters.append(("since_id", since.description)) }
        if let token = query.pageToken {
            parameters.append(("max_id", token))
        } else if let until = query.untilID {
            parameters.append(("max_id", String(until.rawValue - 1)))
        }
        let (body, rateLimit, _) = try await requester.get(path, query: parameters)
        return try Self.page(body, rateLimit: rateLimit)
    }

    /// A page from a parsed answer body, as `V2Client.page`.
    static func page(_ body: JSONValue, rateLimit: RateLimit?) throws -> TimelinePage {
        guard let statuses = body.array else {
            throw APIError.malformed("timeline is not an array", status: 200, rateLimit: rateLimit)
        }
        let page = try Self.page(statuses: statuses, rateLimit: rateLimit)
        return page
    }

    /// The statuses as a page, newest first; the next page token is one below the oldest.
    static func page(statuses: [JSONValue], rateLimit: RateLimit?) throws -> TimelinePage {
        var tweets: [Tweet] = []
        var referenced: [Tweet] = []
        var authors: [UserID: Author] = [:]
        for status in statuses {
            guard let tweet = Self.tweet(status, referenced: &referenced, authors: &authors) else {
                throw APIError.malformed("a status without id_str, user or created_at", status: 200, rateLimit: rateLimit)
            }
            tweets.append(tweet)
        }
        tweets.sort { $0.id > $1.id }
        let next = tweets.last.map { String($0.id.rawValue - 1) }
        return TimelinePage(
            tweets: tweets,
            referencedTweets: referenced,
            authors: Array(authors.values),
            nextPageToken: next,
            rateLimit: rateLimit
        )
    }

    /// `GET statuses/lookup.json?id=…&map=true`: with `map=true` every id asked comes
    /// back, a status or null, under `{"id": {...}}` (a server that ignores `map` answers
    /// the statuses found as an array and leaves the others out). v1.1 does not say why a
    /// status is missing (deleted, protected or its author suspended), so each one is
    /// "Not Found Error" with that said.
    func tweets(ids: [TweetID]) async throws -> LookupResult {
        let ids = LookupResult.checked(ids)
        guard !ids.isEmpty else { return LookupResult(page: TimelinePage(tweets: [], authors: [], nextPageToken: nil)) }
        let (body, rateLimit, _) = try await requester.get(
            "/1.1/statuses/lookup.json",
            query: [("id", ids.map(\.description).joined(separator: ",")), ("map", "true")] + Self.readParameters
        )
        // Without `map` (a server that ignores it) the answer is a plain array.
        guard let map = body["id"]?.object ?? (body.array != nil ? [:] : nil) else {
            throw APIError.malformed("statuses/lookup is neither a map nor an array", status: 200, rateLimit: rateLimit)
        }
        let statuses = body.array ?? map.values.filter { $0.object != nil }
        var page = try Self.page(statuses: statuses, rateLimit: rateLimit)
        page.nextPageToken = nil
        // Under `map` the nulls; in a plain array, the ids asked that it leaves out.
        let found = Set(page.tweets.map(\.id))
        let missing =
            body.array != nil
            ? ids.filter { !found.contains($0) } : map.compactMap { $0.value == .null ? TweetID($0.key) : nil }
        var unavailable: [TweetID: String] = [:]
        for id in missing {
            unavailable[id] = "Not Found Error: statuses/lookup has no status with id \(id) (deleted, protected or suspended)."
        }
        return LookupResult(page: page, unavailable: unavailable)
    }

    static func author(_ user: JSONValue) -> Author? {
        guard let id = user["id_str"]?.string.flatMap(UserID.init), let username = user["screen_name"]?.string else { return nil }
        return Author(
            id: id,
            username: username,
            name: user["name"]?.string ?? username,
            profileImageURL: user["profile_image_url_https"]?.string ?? user["profile_image_url"]?.string
        )
    }

    static func tweet(_ status: JSONValue, referenced: inout [Tweet], authors: inout [UserID: Author]) -> Tweet? {
        guard let id = status["id_str"]?.string.flatMap(TweetID.init),
            let user = status["user"], let author = author(user),
            let created = status["created_at"]?.string.flatMap(Timestamp.parseTwitterDate)
        else { return nil }
        authors[author.id] = author
        let media = V11Status.media(status)
        var text = TextCleaning.unescapeHTML(V11Status.textWithoutMediaLink(status, id: id))
        var retweetOf: TweetID?
        // A retweet's text is built from the original it embeds, never from its own
        // (cut short, or a withholding notice when either account is withheld).
        if let original = status["retweeted_status"], case .object = original,
            let originalTweet = tweet(original, referenced: &referenced, authors: &authors)
        {
            retweetOf = originalTweet.id
            referenced.append(originalTweet)
            if let originalAuthor = authors[originalTweet.authorID] {
                text = Tweet.repostText(username: originalAuthor.username, original: originalTweet.text)
            }
        }
        var quoted = status["quoted_status_id_str"]?.string.flatMap(TweetID.init)
        if let quotedStatus = status["quoted_status"], case .object = quotedStatus,
            let quotedTweet = tweet(quotedStatus, referenced: &referenced, authors: &authors)
        {
            quoted = quotedTweet.id
            referenced.append(quotedTweet)
        }
        let replyTo = status["in_reply_to_status_id_str"]?.string.flatMap(TweetID.init)
        return Tweet(
            id: id,
            authorID: author.id,
            createdAt: created,
            text: text,
            inReplyToID: replyTo,
            repliedUser: V11Status.repliedUser(status),
            retweetOfID: retweetOf,
            quotedID: quoted,
            // v1.1 has no conversation id: a post that replies to nothing is its own
            // conversation; a reply's is the store's to work out from the stored chain.
            conversationID: replyTo == nil ? id : nil,
            media: media,
            links: LinkCollector.links(in: status),
            rawJSON: status.serialized
        )
    }
}
