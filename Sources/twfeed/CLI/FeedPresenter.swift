import Foundation
import TwfeedBase
import TwfeedKit
import TwfeedStore

/// How `twfeed feed` and `search` show a tweet as text (the JSON object is
/// `FeedItem.appendJSON`, in TwfeedKit, so every reader prints the same).
enum FeedPresenter {
    /// Two lines: who and when, then the text on one line.
    static func text(_ item: FeedItem) -> String {
        let who = item.author.map { "@\($0.username) (\($0.name))" } ?? "user \(item.tweet.authorID)"
        let when = Timestamp.iso8601(item.tweet.createdAt).replacingOccurrences(of: "T", with: " ").dropLast(4)
        var marks = [String]()
        if item.tweet.retweetOfID != nil { marks.append("retweet") }
        if item.tweet.inReplyToID != nil { marks.append("reply") }
        if item.tweet.quotedID != nil { marks.append("quote") }
        let tags = (item.feeds.map(\.rawValue) + marks).joined(separator: ",")
        let body = item.tweet.text.replacingOccurrences(of: "\n", with: " ⏎ ")
        return "\(when)  \(who)  [\(tags)]  \(item.tweet.id)\n    \(body)"
    }
}
