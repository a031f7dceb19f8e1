import Mustache

/// A tweet's markup, written by code, its one writer: every value escaped by
/// `PageEscaping`, as a template's `{{name}}` escapes it. Tests/Golden/tweets.html holds
/// its bytes for every shape a tweet takes (TweetHTMLTests).
///
/// Why: swift-mustache finds each value by name at run time, with several dynamic casts
/// per `{{name}}` (about a microsecond each), so a tweet cost 80-90 µs to render. The
/// conversation page shows 27 tweets and a home page 50; written here, a tweet costs a
/// few microseconds.
enum TweetHTML {
    static func render(_ tweet: TweetModel) -> String {
        var out = ""
        out.reserveCapacity(1_500)
        write(tweet, to: &out)
        return out
    }

    static func write(_ tweet: TweetModel, to out: inout String) {
        func text(_ value: String) { out += PageEscaping.escape(value) }
        out += #"<li class="tweet"#
        if tweet.repostedBy != nil { out += " repost" }
        out += #"" id="t"#
        text(tweet.id)
        out += #"" data-id=""#
        text(tweet.id)
        out += #""><img class="avatar" src=""#
        text(tweet.avatar)
        out += #"" width="48" height="48" alt=""><div class="body">"#
        if let reposted = tweet.repostedBy {
            out += #"<p class="reposted">"#
            context(reposted, to: &out)
            out += "</p>"
        }
        out += #"<p class="meta"><span class="name">"#
        text(tweet.post.name)
        out += "</span>"
        if !tweet.post.username.isEmpty {
            out += #" <a class="username" href=""#
            text(tweet.post.profileHref)
            out += #"">@"#
            text(tweet.post.username)
            out += "</a>"
        }
        out += #" · <a class="permalink" href=""#
        text(tweet.post.statusHref)
        out += #"">"#
        time(tweet.post.time, to: &out)
        out += "</a>"
        for feed in tweet.feeds {
            out += #" <span class="feed-tag feed-"#
            text(feed)
            out += #"">"#
            text(feed)
            out += "</span>"
        }
        // A deleted post cannot be answered.
        if !tweet.post.deleted {
            out += #" · <a class="reply" href="/compose?reply_to="#
            text(tweet.replyID)
            out += #"">Reply</a>"#
        }
        out += #" · <a class="thread" href=""#
        text(tweet.post.conversationHref)
        out += #"">Conversation</a></p>"#
        if let context = tweet.context {
            out += #"<p class="context">"#
            self.context(context, to: &out)
            if let excerpt = tweet.replyExcerpt {
                out += #": <span class="excerpt">"#
                text(excerpt)
                out += "</span>"
            }
            out += "</p>"
        }
        shownText(tweet.post, to: &out)
        if let quoted = tweet.quoted {
            out += #"<blockquote class="quoted" data-id=""#
            text(quoted.id)
            out += #""><p class="meta"><span class="name">"#
            text(quoted.name)
            out += "</span>"
            if !quoted.username.isEmpty {
                out += #" <a class="username" href=""#
                text(quoted.profileHref)
                out += #"">@"#
                text(quoted.username)
                out += "</a>"
            }
            out += #" · <a class="permalink" href=""#
            text(quoted.conversationHref)
            out += #"">"#
            time(quoted.time, to: &out)
            out += "</a></p>"
            shownText(quoted, to: &out)
            out += "</blockquote>"
        }
        if let missing = tweet.quotedMissing {
            out += #"<p class="quoted quoted-missing">Quoted: "#
            text(missing)
            out += "</p>"
        }
        out += "</div></li>"
    }

    /// A post's text and media, or, once the account deleted it, a line saying so.
    static func shownText(_ card: TweetModel.Card, to out: inout String) {
        if card.deleted {
            out += #"<p class="deleted">deleted</p>"#
            return
        }
        out += #"<p class="text">"#
        segments(card.segments, to: &out)
        out += "</p>"
        media(card.media, to: &out)
    }

    /// `{{label}} <a href="{{href}}">{{linkText}}</a>`
    static func context(_ context: TweetModel.Context, to out: inout String) {
        out += PageEscaping.escape(context.label)
        out += #" <a href=""#
        out += PageEscaping.escape(context.href)
        out += #"">"#
        out += PageEscaping.escape(context.linkText)
        out += "</a>"
    }

    static func time(_ time: TimeModel, to out: inout String) {
        out += #"<time datetime=""#
        out += PageEscaping.escape(time.iso)
        out += #"" title=""#
        out += PageEscaping.escape(time.exact)
        out += #"">"#
        out += PageEscaping.escape(time.ago)
        out += "</time>"
    }

    /// A post's text with its links (what the Atom feed's `tweetText` partial writes too).
    static func segments(_ segments: [TweetText.Segment], to out: inout String) {
        for segment in segments {
            if let href = segment.href {
                out += #"<a href=""#
                out += PageEscaping.escape(href)
                out += #"" rel="nofollow noopener noreferrer">"#
                out += PageEscaping.escape(segment.text)
                out += "</a>"
            } else {
                out += PageEscaping.escape(segment.text)
            }
        }
    }

    /// A post's photos (from the cache, at their size, with their alt text) and videos'
    /// and GIFs' stills inside a link to the post on x.com, where they play.
    static func media(_ media: [TweetModel.MediaModel], to out: inout String) {
        guard !media.isEmpty else { return }
        out += #"<div class="media">"#
        for item in media {
            if let play = item.playHref {
                out += #"<a class="play" href=""#
                out += PageEscaping.escape(play)
                out += #"" rel="noopener noreferrer">"#
            }
            if let src = item.src {
                out += #"<img class="photo media-"#
                out += PageEscaping.escape(item.kind)
                out += #"" src=""#
                out += PageEscaping.escape(src)
                out += "\""
                if let width = item.width { out += #" width="\#(width)""# }
                if let height = item.height { out += #" height="\#(height)""# }
                out += #" alt=""#
                out += PageEscaping.escape(item.alt)
                out += #"">"#
            } else {
                out += #"<span class="media-pending">"#
                out += PageEscaping.escape(item.label)
                out += " not cached yet"
                if let caption = item.caption {
                    out += ": "
                    out += PageEscaping.escape(caption)
                }
                out += "</span>"
            }
            if item.playHref != nil { out += "</a>" }
        }
        out += "</div>"
    }
}

/// A tweet's markup from `TweetHTML`, which the pages write as it is: the one value a
/// template writes unescaped (the `tweetHTML` partial), and only `TweetHTML` makes one,
/// escaping every value it writes.
struct RenderedTweet: MustacheParent {
    let tweet: TweetModel
    let html: String
    /// The gaps that lie just above this tweet on a feed's page.
    var gapsBefore: [GapMarker] = []

    init(_ tweet: TweetModel) {
        self.tweet = tweet
        html = TweetHTML.render(tweet)
    }

    func child(named name: String) -> Any? {
        switch name {
        case "html": html
        case "gapsBefore": gapsBefore
        default: nil
        }
    }
}
