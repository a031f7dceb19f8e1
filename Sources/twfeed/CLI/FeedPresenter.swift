import Foundation
import TwfeedBase
import TwfeedKit

/// How `twfeed feed` shows a tweet.
enum FeedPresenter {
    static func json(_ item: FeedItem) -> JSONValue {
        func id(_ value: TweetID?) -> JSONValue { value.map { .string($0.description) } ?? .null }
        let author: JSONValue = .object([
            "id": .string(item.tweet.authorID.description),
            "username": item.author.map { .string($0.username) } ?? .null,
            "name": item.author.map { .string($0.name) } ?? .null,
            "avatarPath": item.avatarPath.map { .string($0) } ?? .null,
        ])
        return .object([
            "id": .string(item.tweet.id.description),
            "createdAt": .string(Timestamp.iso8601(item.tweet.createdAt)),
            "text": .string(item.tweet.text),
            "feeds": .array(item.feeds.map { .string($0.rawValue) }),
            "author": author,
            "inReplyToId": id(item.tweet.inReplyToID),
            "retweetOfId": id(item.tweet.retweetOfID),
            "quotedId": id(item.tweet.quotedID),
        ])
    }

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
