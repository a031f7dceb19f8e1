import Foundation
import TwfeedBase
import TwfeedCore

/// The `feed --json` object of a tweet (docs/INTERFACE.md, "JSON output"): what `feed`,
/// `search` and any other reader print, so they agree byte for byte.
extension FeedItem {
    package var json: JSONValue {
        func id(_ value: (some SnowflakeID)?) -> JSONValue { value.map { .string($0.description) } ?? .null }
        let author: JSONValue = .object([
            "id": .string(tweet.authorID.description),
            "username": author.map { .string($0.username) } ?? .null,
            "name": author.map { .string($0.name) } ?? .null,
            "avatarPath": avatarPath.map { .string($0) } ?? .null,
        ])
        return .object([
            "id": .string(tweet.id.description),
            "createdAt": .string(Timestamp.iso8601(tweet.createdAt)),
            "text": .string(tweet.text),
            "feeds": .array(feeds.map { .string($0.rawValue) }),
            "author": author,
            "inReplyToId": id(tweet.inReplyToID),
            "retweetOfId": id(tweet.retweetOfID),
            "quotedId": id(tweet.quotedID),
            "conversationId": id(tweet.conversationID),
            "inReplyTo": replyJSON(for: tweet),
            "media": Self.mediaJSON(media),
            "retweetOf": retweetOf.map { embeddedJSON($0, quoted: quoted) } ?? .null,
            "quoted": retweetOf == nil ? quoted.map { embeddedJSON($0, quoted: nil) } ?? .null : .null,
        ])
    }

    /// `{"id", "username"}` of the post `tweet` replies to (the username when it is stored).
    func replyJSON(for tweet: Tweet) -> JSONValue {
        guard let parent = tweet.inReplyToID else { return .null }
        let username = inReplyTo?.id == parent ? inReplyTo?.username : nil
        return .object(["id": .string(parent.description), "username": username.map { .string($0) } ?? .null])
    }

    /// A reposted original or a quoted post, in the shape of a feed item (no feeds: it is
    /// in none as itself); a reposted original carries its own quote and parent.
    func embeddedJSON(_ embedded: EmbeddedTweet, quoted: EmbeddedTweet?) -> JSONValue {
        var item = FeedItem(tweet: embedded.tweet, feeds: [], author: embedded.author, avatarPath: embedded.avatarPath)
        item.media = embedded.media
        item.quoted = quoted
        item.inReplyTo = inReplyTo
        return item.json
    }

    static func mediaJSON(_ media: [MediaItem]) -> JSONValue {
        .array(
            media.map { item in
                .object([
                    "type": .string(item.media.kind.rawValue),
                    "width": item.media.width.map { .number(String($0)) } ?? .null,
                    "height": item.media.height.map { .number(String($0)) } ?? .null,
                    "altText": item.media.altText.map { .string($0) } ?? .null,
                    "path": item.path.map { .string($0) } ?? .null,
                ])
            }
        )
    }

    /// `json.serialized`'s bytes, written straight into `out`: the same keys in the same
    /// (sorted) order, without building the dictionary and sorting its keys per tweet,
    /// which a full dump of a large feed would do hundreds of thousands of times.
    /// A test checks the two agree.
    package func appendJSON(to out: inout [UInt8]) {
        func key(_ name: StaticString) {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(contentsOf: "\":".utf8)
        }
        func string(_ value: String?) {
            if let value { JSONValue.writeString(value, to: &out) } else { out.append(contentsOf: "null".utf8) }
        }
        func id(_ value: (some SnowflakeID)?) {
            guard let value else {
                out.append(contentsOf: "null".utf8)
                return
            }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: String(value.rawValue).utf8)
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "{"))
        key("author")
        out.append(UInt8(ascii: "{"))
        key("avatarPath")
        string(avatarPath)
        out.append(UInt8(ascii: ","))
        key("id")
        id(tweet.authorID)
        out.append(UInt8(ascii: ","))
        key("name")
        string(author?.name)
        out.append(UInt8(ascii: ","))
        key("username")
        string(author?.username)
        out.append(contentsOf: "},".utf8)
        key("conversationId")
        id(tweet.conversationID)
        out.append(UInt8(ascii: ","))
        key("createdAt")
        out.append(UInt8(ascii: "\""))
        Timestamp.appendISO8601(tweet.createdAt, to: &out)
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ","))
        key("feeds")
        out.append(UInt8(ascii: "["))
        for (index, feed) in feeds.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: feed.rawValue.utf8)
            out.append(UInt8(ascii: "\""))
        }
        out.append(contentsOf: "],".utf8)
        key("id")
        id(tweet.id)
        out.append(UInt8(ascii: ","))
        key("inReplyTo")
        if tweet.inReplyToID == nil { out.append(contentsOf: "null".utf8) } else { out.append(contentsOf: replyJSON(for: tweet).serialized.utf8) }
        out.append(UInt8(ascii: ","))
        key("inReplyToId")
        id(tweet.inReplyToID)
        out.append(UInt8(ascii: ","))
        key("media")
        if media.isEmpty { out.append(contentsOf: "[]".utf8) } else { out.append(contentsOf: Self.mediaJSON(media).serialized.utf8) }
        out.append(UInt8(ascii: ","))
        key("quoted")
        if retweetOf == nil, let quoted {
            out.append(contentsOf: embeddedJSON(quoted, quoted: nil).serialized.utf8)
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(UInt8(ascii: ","))
        key("quotedId")
        id(tweet.quotedID)
        out.append(UInt8(ascii: ","))
        key("retweetOf")
        if let retweetOf {
            out.append(contentsOf: embeddedJSON(retweetOf, quoted: quoted).serialized.utf8)
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(UInt8(ascii: ","))
        key("retweetOfId")
        id(tweet.retweetOfID)
        out.append(UInt8(ascii: ","))
        key("text")
        string(tweet.text)
        out.append(UInt8(ascii: "}"))
    }
}
