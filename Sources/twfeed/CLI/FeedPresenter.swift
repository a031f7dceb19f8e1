import Foundation
import TwfeedBase
import TwfeedCore
import TwfeedKit
import TwfeedStore

/// How `twfeed feed`, `search` and `show` show a tweet as text (the JSON object is
/// `FeedItem.appendJSON`, in TwfeedStore, so every reader prints the same).
enum FeedPresenter {
    /// An author not stored: by id, or, for an archive's like, said to be unknown.
    static func unnamed(_ id: UserID) -> String {
        id == .unknown ? "author not fetched yet" : "user \(id)"
    }

    /// Who and when, then the text on one line; a repost as its original by its author
    /// with "reposted by" above, a reply with whom it answers, a quote as an indented line;
    /// a post the account deleted (`twfeed delete`) tagged `deleted`, its text marked.
    /// With `links` (`StoreReading.tweetLinks`), each `t.co` link shows where it leads, as
    /// the reader and the parent's excerpt show it.
    ///
    /// - Parameter parentAbove: the post it replies to is printed just above it (`show`'s
    ///   thread), which then says whether it is stored: no "replying to" line repeats it.
    static func text(_ item: FeedItem, links: [TweetID: [TweetLink]] = [:], parentAbove: Bool = false) -> String {
        func display(_ tweet: Tweet) -> String { oneLine(TweetLink.shownText(tweet.text, links: links[tweet.id] ?? [])) }
        let shown = item.shown
        let who = shown.author.map { "@\($0.username) (\($0.name))" } ?? Self.unnamed(shown.tweet.authorID)
        let when = Timestamp.iso8601(shown.tweet.createdAt).replacingOccurrences(of: "T", with: " ").dropLast(4)
        var marks = [String]()
        if item.tweet.retweetOfID != nil { marks.append("retweet") }
        if shown.tweet.inReplyToID != nil { marks.append("reply") }
        if shown.tweet.quotedID != nil { marks.append("quote") }
        if item.tweet.deletedAt != nil { marks.append("deleted") }
        let tags = (item.feeds.map(\.rawValue) + marks).joined(separator: ",")
        var lines: [String] = []
        if item.retweetOf != nil {
            lines.append("    reposted by " + (item.author.map { "@\($0.username)" } ?? "user \(item.tweet.authorID)"))
        } else if let original = item.tweet.retweetOfID {
            lines.append("    repost of post \(original), not fetched yet")
        }
        lines.append("\(when)  \(who)  [\(tags)]  \(item.tweet.id)")
        if let reply = item.inReplyTo, !parentAbove {
            let whom: String
            if reply.stored {
                whom = reply.username.map { "@\($0)" } ?? "post \(reply.id)"
            } else {
                // Whom it answers, when the reply's answer said.
                let missing = "post \(reply.id), not fetched yet"
                whom = reply.username.map { "@\($0) (\(missing))" } ?? missing
            }
            lines.append("    replying to \(whom)" + (reply.excerpt.map { ": \(oneLine($0))" } ?? ""))
        }
        if let deletedAt = item.tweet.deletedAt {
            // Gone from X: what it said stays visible, marked, so the record is whole.
            lines.append("    (deleted \(Timestamp.iso8601(deletedAt).replacingOccurrences(of: "T", with: " ").dropLast(4))) \(display(shown.tweet))")
        } else {
            lines.append("    \(display(shown.tweet))")
        }
        if !shown.media.isEmpty {
            lines.append(
                "    " + shown.media.map { "[\($0.media.kind.rawValue)\($0.media.altText.map { ": \(oneLine($0))" } ?? "")]" }.joined(separator: " ")
            )
        }
        if let quoted = item.quoted {
            let author = quoted.author.map { "@\($0.username)" } ?? Self.unnamed(quoted.tweet.authorID)
            lines.append("    > \(author): \(display(quoted.tweet))")
        } else if let missing = shown.tweet.quotedID {
            lines.append("    > quoted post \(missing), not fetched yet")
        }
        return lines.joined(separator: "\n")
    }

    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ⏎ ")
    }
}
