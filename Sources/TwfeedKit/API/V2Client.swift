import Foundation
import TwfeedBase
import TwfeedCore

/// The X API v2: what works on every access tier today.
struct V2Client: TwitterAPI {
    let requester: SignedRequester
    var dialect: TwfeedConfig.Dialect { .v2 }

    static let pageSize = 100
    /// Every read asks for `note_tweet` (a long post's whole text: `text` is cut at 280)
    /// and `attachments` (the media keys, which the expansions join to `includes.media`:
    /// `attachments.media_keys` for the posts of `data`,
    /// `referenced_tweets.id.attachments.media_keys` for those of `includes.tweets`).
    static let tweetFields =
        "created_at,author_id,conversation_id,in_reply_to_user_id,referenced_tweets,entities,attachments,note_tweet"
    static let userFields = ("user.fields", "name,username,profile_image_url")
    /// What a photo, video or GIF is shown by: the photo (`url`) or the still
    /// (`preview_image_url`), its size and its alt text. `includes.media` is not among
    /// the billed resources (x-api.md, "Paying for it": posts and users are), so asking
    /// costs nothing.
    static let mediaFields = ("media.fields", "url,preview_image_url,alt_text,width,height,type")

    /// The `max_results` each timeline accepts (mentions wants at least 5).
    static func pageBounds(_ feed: Feed) -> ClosedRange<Int> { feed == .mentions ? 5...100 : 1...100 }

    /// Everything, authors expanded: the settlement's one read of the own posts, and the
    /// lookups by id (what a tweet points at is mostly by authors twfeed has not stored,
    /// so expanding them costs what a `users(ids:)` call would, in one request).
    static let fields: [(String, String)] = [
        ("tweet.fields", tweetFields),
        (
            "expansions",
            "author_id,referenced_tweets.id,referenced_tweets.id.author_id,attachments.media_keys,"
                + "referenced_tweets.id.attachments.media_keys"
        ),
        userFields,
        mediaFields,
    ]
    /// Timelines: no author expansions. `author_id` is in every post anyway, and each user
    /// in `includes.users` is billed (once per UTC day) however long it has been stored;
    /// the syncer looks up only the authors it lacks or has not refreshed lately.
    static let timelineFields: [(String, String)] = [
        ("tweet.fields", tweetFields),
        ("expansions", "referenced_tweets.id,attachments.media_keys,referenced_tweets.id.attachments.media_keys"),
        mediaFields,
    ]
    /// The own originals with their repost counts, nothing billed expanded: the author is
    /// the account, and what its replies and quotes point at (each billed as a post read,
    /// five times an owned read) is not needed to see which were reposted. Their media
    /// come along (not billed).
    static let ownOriginalsFields: [(String, String)] = [
        ("tweet.fields", tweetFields + ",public_metrics"),
        ("expansions", "attachments.media_keys"),
        mediaFields,
    ]

    var authorsOnRequest: Bool { true }

    func users(ids: [UserID]) async throws -> (authors: [Author], rateLimit: RateLimit?) {
        guard !ids.isEmpty else { return ([], nil) }
        let (body, rateLimit, _) = try await requester.get(
            "/2/users",
            query: [("ids", ids.map(\.description).joined(separator: ",")), Self.userFields]
        )
        return ((body["data"]?.array ?? []).compactMap(Self.author), rateLimit)
    }

    func ownOriginals(userID: UserID, query: TimelineQuery) async throws -> TimelinePage {
        var parameters: [(String, String)] = [("max_results", String(Self.pageSize)), ("exclude", "retweets")]
        if let token = query.pageToken { parameters.append(("pagination_token", token)) }
        let (body, rateLimit, _) = try await requester.get("/2/users/\(userID)/tweets", query: parameters + Self.ownOriginalsFields)
        var page = try Self.page(body, rateLimit: rateLimit)
        for object in body["data"]?.array ?? [] {
            if let id = object["id"]?.string.flatMap(TweetID.init), let count = Self.repostCount(object) {
                page.retweetCounts[id] = count
            }
        }
        return page
    }

    func me() async throws -> Author {
        let (body, rateLimit, _) = try await requester.get("/2/users/me", query: [("user.fields", "name,username,profile_image_url")])
        guard let data = body["data"], let author = Self.author(data) else {
            throw APIError.malformed("no user in /2/users/me", status: 200, rateLimit: rateLimit)
        }
        return author
    }

    func supportsSinceID(_ feed: Feed) -> Bool { feed != .retweets }

    /// The own posts: everything (`fields`), `note_tweet` included, so a long post's
    /// whole text is the text the settling compares (its `text` is cut).
    static let ownPostsFields: [(String, String)] = fields

    func ownPosts(userID: UserID, sinceID: TweetID?) async throws -> TimelinePage {
        var query: [(String, String)] = [("max_results", String(Self.pageSize))]
        if let sinceID { query.append(("since_id", sinceID.description)) }
        let (body, rateLimit, _) = try await requester.get("/2/users/\(userID)/tweets", query: query + Self.ownPostsFields)
        return try Self.page(body, rateLimit: rateLimit)
    }

    func timeline(_ feed: Feed, userID: UserID, query: TimelineQuery) async throws -> TimelinePage {
        let path: String
        switch feed {
        case .home: path = "/2/users/\(userID)/timelines/reverse_chronological"
        case .mentions: path = "/2/users/\(userID)/mentions"
        case .retweets: path = "/2/users/reposts_of_me"
        case .posts, .likes: preconditionFailure("the archive's feed \(feed.rawValue) is never polled")
        }
        let size = Self.pageBounds(feed).clamped(query.maxResults ?? Self.pageSize)
        var parameters: [(String, String)] = [("max_results", String(size))]
        if feed != .retweets {
            if let since = query.sinceID { parameters.append(("since_id", since.description)) }
            if let until = query.untilID { parameters.append(("until_id", until.description)) }
        }
        if let token = query.pageToken { parameters.append(("pagination_token", token)) }
        parameters += Self.timelineFields
        let (body, rateLimit, _) = try await requester.get(path, query: parameters)
        var page = try Self.page(body, rateLimit: rateLimit)
        page.unavailable = Self.unavailable(body, found: page)
        return page
    }

    static func page(_ body: JSONValue, rateLimit: RateLimit?) throws -> TimelinePage {
        guard case .object = body else { throw APIError.malformed("page is not an object", status: 200, rateLimit: rateLimit) }
        let includes = body["includes"]
        var authors: [UserID: Author] = [:]
        for user in includes?["users"]?.array ?? [] {
            if let author = author(user) { authors[author.id] = author }
        }
        var included: [TweetID: JSONValue] = [:]
        // `includes.posts`: the spelling of the OpenAPI spec of August 2026.
        for tweet in (includes?["tweets"]?.array ?? []) + (includes?["posts"]?.array ?? []) {
            if let id = tweet["id"]?.string.flatMap(TweetID.init) { included[id] = tweet }
        }
        let media = Self.media(includes)
        let referenced = included.values.compactMap { tweet(from: $0, included: included, authors: authors, media: media) }
        guard let dataValue = body["data"] else {
            // An empty page has no `data`; it may still carry a next_token.
            return TimelinePage(
                tweets: [],
                referencedTweets: referenced,
                authors: Array(authors.values),
                nextPageToken: body["meta"]?["next_token"]?.string,
                rateLimit: rateLimit
            )
        }
        // A page's `data` is an array; `GET /2/tweets/:id` answers one object.
        let data: [JSONValue]
        switch dataValue {
        case .array(let array): data = array
        case .object: data = [dataValue]
        default: throw APIError.malformed("data is not an array", status: 200, rateLimit: rateLimit)
        }
        var tweets: [Tweet] = []
        tweets.reserveCapacity(data.count)
        for object in data {
            guard let tweet = tweet(from: object, included: included, authors: authors, media: media) else {
                throw APIError.malformed("a tweet without id, author or created_at", status: 200, rateLimit: rateLimit)
            }
            tweets.append(tweet)
        }
        tweets.sort { $0.id > $1.id }
        return TimelinePage(
            tweets: tweets,
            referencedTweets: referenced,
            authors: Array(authors.values),
            nextPageToken: body["meta"]?["next_token"]?.string,
            rateLimit: rateLimit
        )
    }

    /// `public_metrics.retweet_count`, or `repost_count` as the spec of August 2026 names it.
    static func repostCount(_ object: JSONValue) -> Int? {
        let metrics = object["public_metrics"]
        return metrics?["retweet_count"]?.int ?? metrics?["repost_count"]?.int
    }

    static func author(_ user: JSONValue) -> Author? {
        guard let id = user["id"]?.string.flatMap(UserID.init), let username = user["username"]?.string else { return nil }
        return Author(
            id: id,
            username: username,
            name: user["name"]?.string ?? username,
            profileImageURL: user["profile_image_url"]?.string
        )
    }

    static func tweet(
        from object: JSONValue,
        included: [TweetID: JSONValue],
        authors: [UserID: Author],
        media: [String: Media] = [:]
    ) -> Tweet? {
        guard let id = object["id"]?.string.flatMap(TweetID.init),
            let authorID = object["author_id"]?.string.flatMap(UserID.init),
            let created = object["created_at"]?.string.flatMap(Timestamp.parseISO8601)
        else { return nil }
        var text = wholeText(object, id: id)
        var replyTo: TweetID?
        var retweetOf: TweetID?
        var quoted: TweetID?
        // `referenced_posts`: the spelling of the OpenAPI spec of August 2026.
        for reference in object["referenced_tweets"]?.array ?? object["referenced_posts"]?.array ?? [] {
            guard let refID = reference["id"]?.string.flatMap(TweetID.init) else { continue }
            switch reference["type"]?.string {
            case "replied_to": replyTo = refID
            case "quoted": quoted = refID
            case "retweeted", "reposted": retweetOf = refID
            default: break
            }
        }
        // A repost's text is built from the original it points at (its whole text when
        // it is a long post): the repost's own is cut short, or a withholding notice
        // ("@x's account has been withheld in …") when either account is withheld.
        if let retweetOf, let original = included[retweetOf], original["text"]?.string != nil,
            let originalID = original["id"]?.string.flatMap(TweetID.init)
        {
            let originalAuthor = original["author_id"]?.string.flatMap(UserID.init)
            if let username = repostedUsername(object, text: text, originalAuthor: originalAuthor, authors: authors) {
                text = Tweet.repostText(username: username, original: wholeText(original, id: originalID))
            }
        }
        let keys = object["attachments"]?["media_keys"]?.array?.compactMap(\.string) ?? []
        return Tweet(
            id: id,
            authorID: authorID,
            createdAt: created,
            text: text,
            inReplyToID: replyTo,
            repliedUser: replyTo == nil ? nil : repliedUser(object, authors: authors),
            retweetOfID: retweetOf,
            quotedID: quoted,
            conversationID: object["conversation_id"]?.string.flatMap(TweetID.init) ?? (replyTo == nil ? id : nil),
            media: keys.compactMap { media[$0] },
            links: LinkCollector.links(in: object),
            rawJSON: object.serialized
        )
    }

    /// The username a repost names: the original's author's, from `includes.users`
    /// (lookups expand authors), else the one its own text starts with ("RT @ada: …"),
    /// else its mention of that author. Nil when the page does not say (a timeline page,
    /// authors not expanded, whose repost text is a withholding notice): the store then
    /// builds the text from the stored author (`AppDatabase.composeReposts`).
    static func repostedUsername(_ object: JSONValue, text: String, originalAuthor: UserID?, authors: [UserID: Author]) -> String? {
        if let author = originalAuthor.flatMap({ authors[$0] }) { return author.username }
        if text.hasPrefix("RT @"), let colon = text.range(of: ": ") {
            let name = text[text.index(text.startIndex, offsetBy: 4)..<colon.lowerBound]
            if !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) { return String(name) }
        }
        return originalAuthor.flatMap { mentionedUsername(object, id: $0) }
    }

    /// Whom a reply answers (`in_reply_to_user_id`): that user's handle from
    /// `includes.users` when the page expanded them, and the post's own mention of that id
    /// (`entities.mentions`: a reply's text, a long post's cut one too, starts with it).
    /// The store trusts a stored user of that id before the mention
    /// (`AppDatabase.repliedUsername`). Nil when the post does not say whom it answers.
    static func repliedUser(_ object: JSONValue, authors: [UserID: Author]) -> RepliedUser? {
        guard let id = object["in_reply_to_user_id"]?.string.flatMap(UserID.init) else { return nil }
        return RepliedUser(id: id, username: authors[id]?.username, mentioned: mentionedUsername(object, id: id))
    }

    /// The username of the post's mention of user `id`, matched by id, never by name.
    static func mentionedUsername(_ object: JSONValue, id: UserID) -> String? {
        for mention in object["entities"]?["mentions"]?.array ?? [] where mention["id"]?.string == id.description {
            if let username = mention["username"]?.string, !username.isEmpty { return username }
        }
        return nil
    }

    /// A post's whole text, unescaped: `note_tweet.text` (`note_post.text` in the
    /// spelling of August 2026) when it is a long post, else `text` without the trailing
    /// link the API appends for attached media: a `t.co` URL entity with a `media_key`,
    /// or (answers from before 2022, without `media_key`) one that leads to the post's
    /// own photo or video page.
    static func wholeText(_ object: JSONValue, id: TweetID) -> String {
        let note = object["note_tweet"] ?? object["note_post"]
        let whole = note?["text"]?.string
        var text = whole ?? object["text"]?.string ?? ""
        let entities = whole != nil ? note?["entities"] : object["entities"]
        let mediaLinks = (entities?["urls"]?.array ?? []).compactMap { link -> String? in
            guard link["media_key"] != nil || link["expanded_url"]?.string.map({ TextCleaning.isOwnMediaPage($0, of: id) }) == true
            else { return nil }
            return link["url"]?.string
        }
        text = TextCleaning.droppingTrailingLinks(mediaLinks, from: text)
        return TextCleaning.unescapeHTML(text)
    }

    /// `includes.media` by `media_key`: a photo by its `url`, a video or GIF by its still
    /// (`preview_image_url`). An item of an unknown type is left out.
    static func media(_ includes: JSONValue?) -> [String: Media] {
        var result: [String: Media] = [:]
        for item in includes?["media"]?.array ?? [] {
            guard let key = item["media_key"]?.string, let kind = item["type"]?.string.flatMap(Media.Kind.init(rawValue:)) else {
                continue
            }
            let image =
                kind == .photo
                ? item["url"]?.string ?? item["preview_image_url"]?.string
                : item["preview_image_url"]?.string ?? item["url"]?.string
            result[key] = Media(
                key: key,
                kind: kind,
                imageURL: image,
                width: item["width"]?.int,
                height: item["height"]?.int,
                altText: item["alt_text"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            )
        }
        return result
    }
}
