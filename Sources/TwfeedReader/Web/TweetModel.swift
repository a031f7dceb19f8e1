import Foundation
import TwfeedCore
import TwfeedStore

/// One tweet on a page or in a feed, with what it points at: a repost shows the
/// original by its author ("reposted by"), a quote shows the quoted post as a card, a
/// reply says whom it answers with a line of the parent and a link to the conversation.
/// What is not stored is said to be "not fetched yet", with its id.
struct TweetModel {
    /// A repost's or quote's line above or below the text.
    struct Context {
        var label: String
        var href: String
        var linkText: String
    }

    /// A post as a page shows it, with its author, time, text and media: the tweet's own
    /// (a repost's original), and a quoted one inside it.
    struct Card {
        var id: String
        var name: String
        var username: String
        var profileHref: String
        var statusHref: String
        var conversationHref: String
        var time: TimeModel
        var segments: [TweetText.Segment]
        var media: [MediaModel]
        /// The account deleted it (`twfeed delete`): its text and media are not shown,
        /// a line "deleted" is, on every page and in the Atom feed.
        var deleted: Bool
    }

    /// A photo (from the cache) or a video's or GIF's still.
    struct MediaModel {
        var src: String?
        var width: Int?
        var height: Int?
        /// The `<img>`'s alt: the author's description, else what it is (never empty: a
        /// post's picture is content, not decoration).
        var alt: String
        /// The author's description alone, shown while the picture is not cached.
        var caption: String?
        /// `photo`, `video` or `animated_gif` (the class).
        var kind: String
        /// What it is, in words: "photo", "video", "GIF".
        var label: String
        /// A video or GIF links to the post on x.com, where it plays.
        var playHref: String?
    }

    var id: String
    /// The post shown: a repost's original, else this one.
    var post: Card
    /// The post a reply from the page answers: a repost's original, else this one.
    var replyID: String { post.id }
    var avatar: String
    var feeds: [String]
    /// "reposted by NAME" above a repost shown as its original.
    var repostedBy: Context?
    /// "replying to @user" (and a line of the parent), or a fault.
    var context: Context?
    var replyExcerpt: String?
    var quoted: Card?
    /// A quoted post that is not stored: its id and why.
    var quotedMissing: String?

    /// The placeholder shown until an author's picture is cached.
    static let placeholderAvatar = "/static/avatar.svg"

    init(_ item: FeedItem, links: [TweetID: [TweetLink]], now: Date) {
        let shown = item.shown
        let tweet = shown.tweet
        id = item.tweet.id.description
        post = Card(tweet, author: shown.author, media: shown.media, links: links, now: now)
        // A repost the account deleted is gone too, whatever became of the original.
        if item.tweet.deletedAt != nil, !post.deleted {
            post.deleted = true
            post.segments = []
            post.media = []
        }
        avatar = shown.avatarPath ?? Self.placeholderAvatar
        feeds = item.feeds.map(\.rawValue)
        if item.retweetOf != nil {
            let reposter = item.author?.name ?? item.author?.username ?? item.tweet.authorID.description
            repostedBy = Context(label: "reposted by", href: Self.profileHref(item.author, item.tweet.authorID), linkText: reposter)
        } else if let original = item.tweet.retweetOfID {
            repostedBy = Context(label: "Repost of", href: "/tweet/\(original)", linkText: Self.fault(original, item))
        }
        if let reply = item.inReplyTo {
            if reply.stored {
                context = Context(label: "replying to", href: "/tweet/\(reply.id)", linkText: reply.username.map { "@\($0)" } ?? "a post")
                replyExcerpt = reply.deleted ? "deleted" : reply.excerpt
            } else {
                // Whom it answers, when the reply's answer said, and why the parent is not shown.
                let fault = Self.fault(reply.id, item)
                context = Context(label: "replying to", href: "/tweet/\(reply.id)", linkText: reply.username.map { "@\($0) (\(fault))" } ?? fault)
            }
        }
        // What a deleted post quoted went with it.
        if post.deleted {
            return
        } else if let quoted = item.quoted {
            self.quoted = Card(quoted.tweet, author: quoted.author, media: quoted.media, links: links, now: now)
        } else if let missing = tweet.quotedID {
            quotedMissing = Self.fault(missing, item)
        }
    }

    /// "post ID, not fetched yet", or what the API said when it could not give it.
    static func fault(_ id: TweetID, _ item: FeedItem) -> String {
        "post \(id), " + (item.unavailable[id].map { "unavailable (\($0))" } ?? "not fetched yet")
    }

    static func media(_ item: MediaItem, statusHref: String) -> MediaModel {
        let kind = item.media.kind
        let caption = item.media.altText.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        let label =
            switch kind {
            case .photo: "photo"
            case .video: "video"
            case .animatedGIF: "GIF"
            }
        return MediaModel(
            // The reader's `avatarHref` said the file is on disk; photos are served at /media/.
            src: item.path == nil ? nil : item.file.map { "/media/\($0)" },
            width: item.media.width,
            height: item.media.height,
            alt: caption ?? (kind == .photo ? "photo (no description)" : "still of a \(label)"),
            caption: caption,
            kind: kind.rawValue,
            label: label,
            playHref: kind == .photo ? nil : statusHref
        )
    }

    static func profileHref(_ author: Author?, _ id: UserID) -> String {
        author.map { "https://x.com/\(pathSafe($0.username))" } ?? "https://x.com/i/user/\(id)"
    }

    /// A username as a URL path segment: usernames are `[A-Za-z0-9_]`, anything else is
    /// percent-encoded rather than trusted.
    static let usernameCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")

    static func pathSafe(_ text: String) -> String {
        // The usual username needs no encoding: checked on the bytes, without Foundation.
        if !text.isEmpty, text.utf8.allSatisfy(isUsernameByte) { return text }
        return text.addingPercentEncoding(withAllowedCharacters: Self.usernameCharacters) ?? "_"
    }

    /// A byte of `usernameCharacters`.
    static func isUsernameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}

extension TweetModel.Card {
    init(_ tweet: Tweet, author: Author?, media: [MediaItem], links: [TweetID: [TweetLink]], now: Date) {
        id = tweet.id.description
        // An archive's like names no author until the post is fetched: no "@" line then.
        let authorKnown = tweet.authorID != .unknown
        name = author?.name ?? (authorKnown ? "unknown author" : "author not fetched yet")
        username = author?.username ?? (authorKnown ? tweet.authorID.description : "")
        profileHref = TweetModel.profileHref(author, tweet.authorID)
        statusHref =
            username.isEmpty
            ? "https://x.com/i/web/status/\(tweet.id)" : "https://x.com/\(TweetModel.pathSafe(username))/status/\(tweet.id)"
        conversationHref = "/tweet/\(tweet.id)"
        time = TimeModel(tweet.createdAt, now: now)
        deleted = tweet.deletedAt != nil
        segments = deleted ? [] : TweetText.segments(tweet.text, links: links[tweet.id] ?? [])
        self.media = deleted ? [] : media.map { TweetModel.media($0, statusHref: "https://x.com/i/web/status/\(tweet.id)") }
    }
}
