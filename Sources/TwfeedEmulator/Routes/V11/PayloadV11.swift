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
        /// `include_entities=false` drops `entities` (and `extended_entities`).
        var includeEntities = true
        /// `include_ext_alt_text=true`: each media item's `ext_alt_text` (null when the
        /// author wrote none); without it, no alt text at all.
        var includeAltText = false

        init(_ items: [(name: String, value: String)]) {
            func flag(_ name: String) -> Bool? {
                items.first { $0.name == name }.map { ["true", "1", "t"].contains($0.value.lowercased()) }
            }
            extended = items.first { $0.name == "tweet_mode" }?.value == "extended"
            trimUser = flag("trim_user") ?? false
            includeEntities = flag("include_entities") ?? true
            includeAltText = flag("include_ext_alt_text") ?? false
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
        let author = store.user(tweet.authorID)
        if options.includeEntities {
            let media = tweet.media.enumerated().map { index, item in
                Self.media(item, index: index, tweet: tweet, author: author, at: text.length, options: options, imageBase: imageBase)
            }
            var entities = entities(text, store: store)
            // `entities.media` holds the first item only; `extended_entities` all of them.
            if case .object(var object) = entities, let first = media.first {
                object.append(("media", .array([first])))
                entities = .object(object)
            }
            members.append(("entities", entities))
            if !media.isEmpty { members.append(("extended_entities", .object([("media", .array(media))]))) }
        }
        members.append(("source", .string(tweet.source)))
        let replyAuthor = tweet.inReplyToUserID.flatMap { store.user($0) }
        members += [
            ("in_reply_to_status_id", tweet.inReplyToTweetID.map(EmulatorJSON.id) ?? .null),
            ("in_reply_to_status_id_str", .stringOrNull(tweet.inReplyToTweetID.map { String($0) })),
            ("in_reply_to_user_id", tweet.inReplyToUserID.map(EmulatorJSON.id) ?? .null),
            ("in_reply_to_user_id_str", .stringOrNull(tweet.inReplyToUserID.map { String($0) })),
            ("in_reply_to_screen_name", .stringOrNull(replyAuthor?.username)),
        ]
        if let author {
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

    /// One item of `extended_entities.media`: its picture (`media_url_https`), `sizes`
    /// (`large` is the original, which `original_info` gives too), a `t.co` link and,
    /// with `include_ext_alt_text`, `ext_alt_text`. The emulator does not append that
    /// link to the text (the real API does), so `indices` point at the text's end.
    static func media(
        _ item: EmulatedMedia,
        index: Int,
        tweet: StoredTweet,
        author: EmulatedUser?,
        at end: Int,
        options: Options,
        imageBase: String
    ) -> EmulatorJSON {
        let code = String(tweet.id, radix: 36)
        let expanded = "https://x.com/\(author?.username ?? "i")/status/\(tweet.id)/\(item.kind == .photo ? "photo" : "video")/\(index + 1)"
        func size(_ limit: Int, resize: String = "fit") -> EmulatorJSON {
            let fitted = item.fitted(limit)
            return .object([("w", .int(fitted.width)), ("h", .int(fitted.height)), ("resize", .string(resize))])
        }
        let url = imageBase + item.path
        var members: [(String, EmulatorJSON)] = [
            ("id", .id(item.id)), ("id_str", .string(String(item.id))), ("indices", .array([.int(end), .int(end)])),
            ("media_url", .string(url)), ("media_url_https", .string(url)),
            ("url", .string("https://t.co/" + code)), ("display_url", .string("pic.x.com/" + code)),
            ("expanded_url", .string(expanded)), ("type", .string(item.kind.rawValue)),
            ("original_info", .object([("width", .int(item.width)), ("height", .int(item.height))])),
            (
                "sizes",
                .object([
                    ("thumb", .object([("w", .int(150)), ("h", .int(150)), ("resize", .string("crop"))])),
                    ("small", size(680)), ("medium", size(1200)), ("large", size(2048)),
                ])
            ),
        ]
        if item.kind != .photo {
            let gcd = { (a: Int, b: Int) -> Int in
                var (x, y) = (a, b)
                while y != 0 { (x, y) = (y, x % y) }
                return max(1, x)
            }(item.width, item.height)
            members.append(
                (
                    "video_info",
                    .object([
                        ("aspect_ratio", .array([.int(item.width / gcd), .int(item.height / gcd)])),
                        (
                            "variants",
                            .array([
                                .object([
                                    ("content_type", .string("video/mp4")),
                                    ("url", .string("\(imageBase)/ext_tw_video/\(item.id)/pu/vid/\(item.width)x\(item.height)/\(code).mp4")),
                                ])
                            ])
                        ),
                    ])
                )
            )
        }
        if options.includeAltText { members.append(("ext_alt_text", .stringOrNull(item.altText))) }
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
