import Foundation
import TwfeedBase

/// The field, expansion and user-field sets a v2 request asked for. The v2 API answers
/// only `id`, `text` and `edit_history_tweet_ids` unless asked, so the emulator does too:
/// a client that forgets to ask finds out here, not in production.
struct V2Fields {
    var tweetFields: Set<String> = []
    var expansions: Set<String> = []
    var userFields: Set<String> = []
    var mediaFields: Set<String> = []

    static let knownTweetFields: Set<String> = [
        "attachments", "author_id", "card_uri", "context_annotations", "conversation_id", "created_at",
        "edit_controls", "edit_history_tweet_ids", "entities", "geo", "id", "in_reply_to_user_id", "lang",
        "non_public_metrics", "note_tweet", "organic_metrics", "possibly_sensitive", "promoted_metrics",
        "public_metrics", "referenced_tweets", "reply_settings", "scopes", "source", "text", "withheld",
    ]
    static let knownExpansions: Set<String> = [
        "author_id", "referenced_tweets.id", "referenced_tweets.id.author_id", "in_reply_to_user_id",
        "entities.mentions.username", "attachments.media_keys", "attachments.poll_ids", "geo.place_id",
        "edit_history_tweet_ids", "pinned_tweet_id", "referenced_tweets.id.attachments.media_keys",
    ]
    static let knownUserFields: Set<String> = [
        "created_at", "description", "entities", "id", "location", "most_recent_tweet_id", "name",
        "pinned_tweet_id", "profile_image_url", "protected", "public_metrics", "url", "username", "verified",
        "verified_type", "withheld",
    ]

    static let knownMediaFields: Set<String> = [
        "alt_text", "duration_ms", "height", "media_key", "non_public_metrics", "organic_metrics", "preview_image_url",
        "promoted_metrics", "public_metrics", "type", "url", "variants", "width",
    ]

    /// Reads `tweet.fields`, `expansions`, `user.fields` and `media.fields`; each unknown
    /// value is a parameter error.
    init(query: [(name: String, value: String)], errors: inout [ErrorBody.ParameterError]) {
        func parse(_ name: String, known: Set<String>) -> Set<String> {
            guard let value = query.first(where: { $0.name == name })?.value else { return [] }
            var result: Set<String> = []
            for item in value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
                if known.contains(item) {
                    result.insert(item)
                } else {
                    errors.append(
                        .init(
                            parameter: name,
                            value: item,
                            message: "The `\(name)` query parameter value [\(item)] is not one of [\(known.sorted().joined(separator: ","))]"
                        )
                    )
                }
            }
            return result
        }
        tweetFields = parse("tweet.fields", known: Self.knownTweetFields)
        expansions = parse("expansions", known: Self.knownExpansions)
        userFields = parse("user.fields", known: Self.knownUserFields)
        mediaFields = parse("media.fields", known: Self.knownMediaFields)
    }
}

/// v2 JSON: tweets, users, pages with `includes` and `meta`.
enum PayloadV2 {
    /// A tweet object with the `tweet.fields` asked. `attachments` (the media keys) comes
    /// with the field, or with `mediaExpanded`: the expansion that joins this tweet's
    /// media (`attachments.media_keys` for `data`,
    /// `referenced_tweets.id.attachments.media_keys` for `includes.tweets`).
    static func tweet(_ tweet: StoredTweet, fields: Set<String>, mediaExpanded: Bool = false) -> EmulatorJSON {
        var members: [(String, EmulatorJSON)] = [("id", .string(String(tweet.id))), ("text", .string(tweet.rendered.escaped))]
        if fields.contains("created_at") { members.append(("created_at", .string(Timestamp.iso8601Milliseconds(tweet.createdAt)))) }
        if fields.contains("author_id") { members.append(("author_id", .string(String(tweet.authorID)))) }
        if fields.contains("conversation_id") {
            members.append(("conversation_id", .string(String(tweet.conversationID))))
        }
        if fields.contains("in_reply_to_user_id"), let user = tweet.inReplyToUserID {
            members.append(("in_reply_to_user_id", .string(String(user))))
        }
        if fields.contains("referenced_tweets") {
            let references = Self.references(tweet)
            if !references.isEmpty {
                members.append(
                    (
                        "referenced_tweets",
                        .array(
                            references.map {
                                .object([("type", .string($0.type)), ("id", .string(String($0.id)))])
                            }
                        )
                    )
                )
            }
        }
        if fields.contains("attachments") || mediaExpanded, !tweet.media.isEmpty {
            members.append(("attachments", .object([("media_keys", .array(tweet.media.map { .string($0.key) }))])))
        }
        if fields.contains("entities"), !tweet.rendered.entities.isEmpty {
            members.append(("entities", entities(tweet.rendered)))
        }
        if fields.contains("note_tweet"), let note = tweet.note {
            var object: [(String, EmulatorJSON)] = [("text", .string(note.escaped))]
            if !note.entities.isEmpty { object.append(("entities", entities(note))) }
            members.append(("note_tweet", .object(object)))
        }
        if fields.contains("public_metrics") {
            members.append(
                (
                    "public_metrics",
                    .object([
                        ("retweet_count", .int(tweet.retweetCount)), ("reply_count", .int(tweet.replyCount)),
                        ("like_count", .int(tweet.likeCount)), ("quote_count", .int(tweet.quoteCount)),
                        ("bookmark_count", .int(0)), ("impression_count", .int(tweet.likeCount * 37 + 12)),
                    ])
                )
            )
        }
        if fields.contains("lang") { members.append(("lang", .string("en"))) }
        if fields.contains("possibly_sensitive") { members.append(("possibly_sensitive", .bool(false))) }
        if fields.contains("reply_settings") { members.append(("reply_settings", .string("everyone"))) }
        if fields.contains("source") { members.append(("source", .string("twfeed-emulator"))) }
        members.append(("edit_history_tweet_ids", .array([.string(String(tweet.id))])))
        return .object(members)
    }

    /// `referenced_tweets`: what a tweet retweets, quotes or replies to.
    static func references(_ tweet: StoredTweet) -> [(type: String, id: UInt64)] {
        var result: [(type: String, id: UInt64)] = []
        if let id = tweet.retweetedID { result.append(("retweeted", id)) }
        if let id = tweet.quotedID { result.append(("quoted", id)) }
        if let id = tweet.inReplyToTweetID { result.append(("replied_to", id)) }
        return result
    }

    static func entities(_ text: RenderedText) -> EmulatorJSON {
        var mentions: [EmulatorJSON] = []
        var hashtags: [EmulatorJSON] = []
        var urls: [EmulatorJSON] = []
        for entity in text.entities {
            switch entity {
            case .mention(let start, let end, let username, let id):
                mentions.append(
                    .object([
                        ("start", .int(start)), ("end", .int(end)),
                        ("username", .string(username)), ("id", .string(String(id))),
                    ])
                )
            case .hashtag(let start, let end, let tag):
                hashtags.append(.object([("start", .int(start)), ("end", .int(end)), ("tag", .string(tag))]))
            case .url(let start, let end, let link):
                urls.append(
                    .object([
                        ("start", .int(start)), ("end", .int(end)), ("url", .string(link.url)),
                        ("expanded_url", .string(link.expanded)), ("display_url", .string(link.display)),
                    ])
                )
            }
        }
        var members: [(String, EmulatorJSON)] = []
        if !urls.isEmpty { members.append(("urls", .array(urls))) }
        if !mentions.isEmpty { members.append(("mentions", .array(mentions))) }
        if !hashtags.isEmpty { members.append(("hashtags", .array(hashtags))) }
        return .object(members)
    }

    static func user(_ user: EmulatedUser, fields: Set<String>, imageBase: String) -> EmulatorJSON {
        var members: [(String, EmulatorJSON)] = [
            ("id", .string(String(user.id))), ("name", .string(user.name)), ("username", .string(user.username)),
        ]
        if fields.contains("profile_image_url") {
            members.append(("profile_image_url", .string(AvatarServer.url(for: user, base: imageBase))))
        }
        if fields.contains("created_at") { members.append(("created_at", .string(Timestamp.iso8601Milliseconds(user.createdAt)))) }
        if fields.contains("description") { members.append(("description", .string(user.description))) }
        if fields.contains("location"), !user.location.isEmpty { members.append(("location", .string(user.location))) }
        if fields.contains("protected") { members.append(("protected", .bool(false))) }
        if fields.contains("verified") { members.append(("verified", .bool(false))) }
        if fields.contains("url") { members.append(("url", .string(""))) }
        if fields.contains("public_metrics") {
            members.append(
                (
                    "public_metrics",
                    .object([
                        ("followers_count", .int(user.followersCount)), ("following_count", .int(user.followingCount)),
                        ("tweet_count", .int(user.followersCount / 3 + 17)), ("listed_count", .int(user.followersCount / 100)),
                    ])
                )
            )
        }
        return .object(members)
    }

    /// A media object: `media_key` and `type` always, the rest only as `media.fields`
    /// asks (`url` is a photo's own, `preview_image_url` a video's or GIF's still;
    /// `alt_text` only when the author wrote one), as the real API answers.
    static func media(_ item: EmulatedMedia, fields: Set<String>, imageBase: String) -> EmulatorJSON {
        var members: [(String, EmulatorJSON)] = [("media_key", .string(item.key)), ("type", .string(item.kind.rawValue))]
        if fields.contains("url"), item.kind == .photo { members.append(("url", .string(imageBase + item.path))) }
        if fields.contains("preview_image_url"), item.kind != .photo {
            members.append(("preview_image_url", .string(imageBase + item.path)))
        }
        if fields.contains("width") { members.append(("width", .int(item.width))) }
        if fields.contains("height") { members.append(("height", .int(item.height))) }
        if fields.contains("alt_text"), let alt = item.altText { members.append(("alt_text", .string(alt))) }
        if fields.contains("duration_ms"), item.kind == .video { members.append(("duration_ms", .int(12_000 + Int(item.id % 50_000)))) }
        return .object(members)
    }

    /// A timeline page: `data`, `includes` (only for the expansions asked), partial
    /// `errors` for referenced tweets that no longer exist, and `meta`.
    static func page(
        _ tweets: [StoredTweet],
        nextToken: String?,
        fields: V2Fields,
        store: TweetStore,
        imageBase: String,
        served: inout ServedResources
    ) -> EmulatorJSON {
        var meta: [(String, EmulatorJSON)] = [("result_count", .int(tweets.count))]
        if let newest = tweets.first, let oldest = tweets.last {
            meta.append(("newest_id", .string(String(newest.id))))
            meta.append(("oldest_id", .string(String(oldest.id))))
        }
        if let nextToken { meta.append(("next_token", .string(nextToken))) }
        guard !tweets.isEmpty else { return .object([("meta", .object(meta))]) }
        var members = body(tweets, single: false, fields: fields, store: store, imageBase: imageBase, served: &served)
        members.append(("meta", .object(meta)))
        return .object(members)
    }

    /// `data` (an array, or with `single` one object), `includes` (only for the
    /// expansions asked) and partial `errors`: `errors` given first (a lookup's missing
    /// ids), then one per referenced tweet that no longer exists. Records in `served`
    /// what went out. `tweets` empty: only the errors (no `data`), as the API answers.
    /// The users in `leavingOut` are in no `includes.users` (an answer that omits a user).
    static func body(
        _ tweets: [StoredTweet],
        single: Bool,
        errors given: [EmulatorJSON] = [],
        fields: V2Fields,
        leavingOut: Set<UInt64> = [],
        store: TweetStore,
        imageBase: String,
        served: inout ServedResources
    ) -> [(String, EmulatorJSON)] {
        var userIDs: [UInt64] = []
        var seenUsers: Set<UInt64> = []
        var included: [StoredTweet] = []
        var seenTweets: Set<UInt64> = []
        var errors = given
        func addUser(_ id: UInt64) {
            if store.user(id) != nil, !leavingOut.contains(id), seenUsers.insert(id).inserted { userIDs.append(id) }
        }
        let expansions = fields.expansions
        for tweet in tweets {
            if expansions.contains("author_id") { addUser(tweet.authorID) }
            if expansions.contains("in_reply_to_user_id"), let id = tweet.inReplyToUserID { addUser(id) }
            if expansions.contains("entities.mentions.username") {
                for case .mention(_, _, _, let id) in tweet.rendered.entities { addUser(id) }
            }
            guard expansions.contains("referenced_tweets.id") || expansions.contains("referenced_tweets.id.author_id") else {
                continue
            }
            for reference in references(tweet) {
                guard let target = store.tweets[reference.id], !target.deleted else {
                    if expansions.contains("referenced_tweets.id"), seenTweets.insert(reference.id).inserted {
                        errors.append(unavailableError(reference.id, parameter: "referenced_tweets.id", store: store))
                    }
                    continue
                }
                if expansions.contains("referenced_tweets.id"), seenTweets.insert(target.id).inserted {
                    included.append(target)
                }
                if expansions.contains("referenced_tweets.id.author_id") { addUser(target.authorID) }
            }
        }

        let dataMedia = expansions.contains("attachments.media_keys")
        let includedMedia = expansions.contains("referenced_tweets.id.attachments.media_keys")
        var members: [(String, EmulatorJSON)] = []
        if single, let only = tweets.first {
            members.append(("data", tweet(only, fields: fields.tweetFields, mediaExpanded: dataMedia)))
        } else if !tweets.isEmpty {
            members.append(("data", .array(tweets.map { tweet($0, fields: fields.tweetFields, mediaExpanded: dataMedia) })))
        }
        for tweet in tweets { served.addPost(tweet.id) }
        var includes: [(String, EmulatorJSON)] = []
        let users = userIDs.compactMap { store.user($0) }
        if !users.isEmpty {
            includes.append(("users", .array(users.map { user($0, fields: fields.userFields, imageBase: imageBase) })))
            for user in users { served.addUser(user.id) }
        }
        if !included.isEmpty {
            includes.append(
                ("tweets", .array(included.map { tweet($0, fields: fields.tweetFields, mediaExpanded: includedMedia) }))
            )
            for tweet in included { served.addIncludedPost(tweet.id) }
        }
        // The media of `data` (`attachments.media_keys`) and of `includes.tweets`
        // (`referenced_tweets.id.attachments.media_keys`), each once. Not billed: the
        // price list has posts and users, not media.
        if dataMedia || includedMedia {
            var seenMedia: Set<UInt64> = []
            let media = ((dataMedia ? tweets : []) + (includedMedia ? included : [])).flatMap(\.media)
                .filter { seenMedia.insert($0.id).inserted }
            if !media.isEmpty {
                includes.append(("media", .array(media.map { Self.media($0, fields: fields.mediaFields, imageBase: imageBase) })))
            }
        }
        if !includes.isEmpty { members.append(("includes", .object(includes))) }
        if !errors.isEmpty { members.append(("errors", .array(errors))) }
        return members
    }

    /// The partial error for a post that is missing or gone, by why it is gone
    /// (`TweetUnavailability`): "Not Found Error" for a deleted or unknown one,
    /// "Authorization Error" for a protected author's, "Forbidden" for a suspended one's.
    static func unavailableError(_ id: UInt64, parameter: String, store: TweetStore) -> EmulatorJSON {
        let tweet = store.tweets[id]
        switch tweet?.unavailability {
        case .protected?:
            return .object([
                ("value", .string(String(id))),
                ("detail", .string("Sorry, you are not authorized to see the Tweet with \(parameter): [\(id)].")),
                ("title", .string("Authorization Error")),
                ("resource_type", .string("tweet")),
                ("parameter", .string(parameter)),
                ("resource_id", .string(String(id))),
                ("section", .string("data")),
                ("type", .string("https://api.twitter.com/2/problems/not-authorized-for-resource")),
            ])
        case .suspended?:
            let author = tweet.map { String($0.authorID) } ?? ""
            return .object([
                ("value", .string(String(id))),
                ("detail", .string("User has been suspended: [\(author)].")),
                ("title", .string("Forbidden")),
                ("resource_type", .string("tweet")),
                ("parameter", .string(parameter)),
                ("resource_id", .string(String(id))),
                ("section", .string("data")),
                ("type", .string("https://api.twitter.com/2/problems/resource-not-found")),
            ])
        case .deleted?, nil:
            return notFoundError(id, parameter: parameter)
        }
    }

    /// A not-found tweet among `data`: `parameter` is what named it (`ids`, `id`,
    /// `referenced_tweets.id`).
    static func notFoundError(_ id: UInt64, parameter: String) -> EmulatorJSON {
        .object([
            ("value", .string(String(id))),
            ("detail", .string("Could not find tweet with \(parameter): [\(id)].")),
            ("title", .string("Not Found Error")),
            ("resource_type", .string("tweet")),
            ("parameter", .string(parameter)),
            ("resource_id", .string(String(id))),
            ("type", .string("https://api.twitter.com/2/problems/resource-not-found")),
        ])
    }
}
