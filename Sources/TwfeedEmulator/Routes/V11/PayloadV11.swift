import Foundation
import TwfeedBase

/// v1.1 JSON: status and user objects. Ids come twice, as a number (which exceeds 2^53,
/// so a client that reads it as a Double gets it wrong) and as `id_str`.
enum PayloadV11 {
    struct Options {
        /// `tweet_mode=extended`: `full_text` instead of a `text` cut to 140.
        var extended = false
        /// `trim_user=true`: the user object is only `id` and `id_str`.
        var trimUser = false
        /// `include_entities=false` drops `entities`.
        var includeEntities = true

        init(_ items: [(name: String, value: String)]) {
            func flag(_ name: String) -> Bool? {
                items.first { $0.name == name }.map { ["true", "1", "t"].contains($0.value.lowercased()) }
            }
            extended = items.first { $0.name == "tweet_mode" }?.value == "extended"
            trimUser = flag("trim_user") ?? false
            includeEntities = flag("include_entities") ?? true
        }
    }

    /// A status object; records in `served` the users it embeds and, below the top
    /// level (`depth` > 0), itself as an embedded post. The caller records a top-level one.
    static func status(
        _ tweet: StoredTweet,
        store: TweetStore,
        options: Options,
        imageBase: String,
        depth: Int = 0,
        served: inout ServedResources
    ) -> EmulatorJSON {
        if depth > 0 { served.addIncludedPost(tweet.id) }
        let text = options.extended ? tweet.rendered : (tweet.shortened ?? tweet.rendered)
        var members: [(String, EmulatorJSON)] = [
            ("created_at", .string(Timestamp.twitterDate(tweet.createdAt))),
            ("id", .id(tweet.id)),
            ("id_str", .string(String(tweet.id))),
        ]
        if options.extended {
            members.append(("full_text", .string(text.escaped)))
            members.append(("truncated", .bool(false)))
            members.append(("display_text_range", .array([.int(0), .int(text.length)])))
        } else {
            members.append(("text", .string(text.escaped)))
            members.append(("truncated", .bool(tweet.shortened != nil)))
        }
        if options.includeEntities { members.append(("entities", entities(text, store: store))) }
        members.append(("source", .string(tweet.source)))
        let replyAuthor = tweet.inReplyToUserID.flatMap { store.user($0) }
        members += [
            ("in_reply_to_status_id", tweet.inReplyToTweetID.map(EmulatorJSON.id) ?? .null),
            ("in_reply_to_status_id_str", .stringOrNull(tweet.inReplyToTweetID.map { String($0) })),
            ("in_reply_to_user_id", tweet.inReplyToUserID.map(EmulatorJSON.id) ?? .null),
            ("in_reply_to_user_id_str", .stringOrNull(tweet.inReplyToUserID.map { String($0) })),
            ("in_reply_to_screen_name", .stringOrNull(replyAuthor?.username)),
        ]
        if let author = store.user(tweet.authorID) {
            members.append(("user", user(author, imageBase: imageBase, trim: options.trimUser)))
            if !options.trimUser { served.addUser(author.id) }
        }
        members += [("geo", .null), ("coordinates", .null), ("place", .null), ("contributors", .null)]
        if depth < 2, let id = tweet.retweetedID, let original = store.tweets[id], !original.deleted {
            members.append(
                (
                    "retweeted_status",
                    status(
                        original,
                        store: store,
                        options: options,
                        imageBase: imageBase,
                        depth: depth + 1,
                        served: &served
                    )
                )
            )
        }
        members.append(("is_quote_status", .bool(tweet.quotedID != nil)))
        if let id = tweet.quotedID {
            members.append(("quoted_status_id", .id(id)))
            members.append(("quoted_status_id_str", .string(String(id))))
            if depth < 2, let quoted = store.tweets[id], !quoted.deleted {
                members.append(
                    (
                        "quoted_status",
                        status(
                            quoted,
                            store: store,
                            options: options,
                            imageBase: imageBase,
                            depth: depth + 1,
                            served: &served
                        )
                    )
                )
            }
        }
        members += [
            ("retweet_count", .int(tweet.retweetCount)), ("favorite_count", .int(tweet.likeCount)),
            ("favorited", .bool(false)), ("retweeted", .bool(false)), ("lang", .string("en")),
        ]
        return .object(members)
    }

    static func entities(_ text: RenderedText, store: TweetStore) -> EmulatorJSON {
        var hashtags: [EmulatorJSON] = []
        var mentions: [EmulatorJSON] = []
        var urls: [EmulatorJSON] = []
        for entity in text.entities {
            switch entity {
            case .hashtag(let start, let end, let tag):
                hashtags.append(.object([("text", .string(tag)), ("indices", .array([.int(start), .int(end)]))]))
            case .mention(let start, let end, let username, let id):
                mentions.append(
                    .object([
                        ("screen_name", .string(username)), ("name", .string(store.user(id)?.name ?? username)),
                        ("id", .id(id)), ("id_str", .string(String(id))), ("indices", .array([.int(start), .int(end)])),
                    ])
                )
            case .url(let start, let end, let link):
                urls.append(
                    .object([
                        ("url", .string(link.url)), ("expanded_url", .string(link.expanded)),
                        ("display_url", .string(link.display)), ("indices", .array([.int(start), .int(end)])),
                    ])
                )
            }
        }
        return .object([
            ("hashtags", .array(hashtags)), ("symbols", .array([])),
            ("user_mentions", .array(mentions)), ("urls", .array(urls)),
        ])
    }

    static func user(_ user: EmulatedUser, imageBase: String, trim: Bool = false) -> EmulatorJSON {
        if trim { return .object([("id", .id(user.id)), ("id_str", .string(String(user.id)))]) }
        let image = AvatarServer.url(for: user, base: imageBase)
        return .object([
            ("id", .id(user.id)), ("id_str", .string(String(user.id))), ("name", .string(user.name)),
            ("screen_name", .string(user.username)), ("location", .string(user.location)),
            ("description", .string(user.description)), ("url", .null), ("protected", .bool(false)),
            ("followers_count", .int(user.followersCount)), ("friends_count", .int(user.followingCount)),
            ("listed_count", .int(user.followersCount / 100)), ("created_at", .string(Timestamp.twitterDate(user.createdAt))),
            ("favourites_count", .int(user.followingCount * 3)), ("verified", .bool(false)),
            ("statuses_count", .int(user.followersCount / 3 + 17)),
            ("profile_image_url", .string(image)), ("profile_image_url_https", .string(image)),
            ("default_profile_image", .bool(false)),
        ])
    }
}
