import Foundation
import TwfeedBase
import TwfeedCore

/// The legacy v1.1 endpoints, for enterprise access and compatible servers.
struct V11Client: TwitterAPI {
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

    func post(text: String, replyTo: TweetID?) async throws -> TweetID {
        var form = [("status", text)]
        if let replyTo { form.append(("in_reply_to_status_id", replyTo.description)) }
        let (body, rateLimit, _) = try await requester.post("/1.1/statuses/update.json", form: form)
        guard let id = body["id_str"]?.string.flatMap(TweetID.init) else {
            throw APIError.malformed("no id_str in the answer to statuses/update", status: 200, rateLimit: rateLimit)
        }
        return id
    }

    func ownPosts(userID: UserID, sinceID: TweetID?) async throws -> TimelinePage {
        var query = [("user_id", userID.description), ("count", "200"), ("tweet_mode", "extended")]
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

    /// `statuses/user_timeline` without the account's retweets, 200 a page, paged by
    /// `max_id`; every status carries `retweet_count`.
    func ownOriginals(userID: UserID, query: TimelineQuery) async throws -> TimelinePage {
        var parameters: [(String, String)] = [
            ("user_id", userID.description), ("count", "200"), ("tweet_mode", "extended"), ("include_rts", "false"),
        ]
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
        }
        let size = Self.pageBounds(feed).clamped(query.maxResults ?? Self.pageSize(feed))
        var parameters: [(String, String)] = [("count", String(size)), ("tweet_mode", "extended")]
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
        var text = TextCleaning.unescapeHTML(status["full_text"]?.string ?? status["text"]?.string ?? "")
        var retweetOf: TweetID?
        if let original = status["retweeted_status"], case .object = original,
            let originalTweet = tweet(original, referenced: &referenced, authors: &authors)
        {
            retweetOf = originalTweet.id
            referenced.append(originalTweet)
            if let originalAuthor = authors[originalTweet.authorID] {
                text = "RT @\(originalAuthor.username): " + originalTweet.text
            }
        }
        var quoted = status["quoted_status_id_str"]?.string.flatMap(TweetID.init)
        if let quotedStatus = status["quoted_status"], case .object = quotedStatus,
            let quotedTweet = tweet(quotedStatus, referenced: &referenced, authors: &authors)
        {
            quoted = quotedTweet.id
            referenced.append(quotedTweet)
        }
        return Tweet(
            id: id,
            authorID: author.id,
            createdAt: created,
            text: text,
            inReplyToID: status["in_reply_to_status_id_str"]?.string.flatMap(TweetID.init),
            retweetOfID: retweetOf,
            quotedID: quoted,
            conversationID: nil,
            rawJSON: status.serialized
        )
    }
}
