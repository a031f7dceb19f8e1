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
        embeddedItem(embedded, quoted: quoted).json
    }

    func embeddedItem(_ embedded: EmbeddedTweet, quoted: EmbeddedTweet?) -> FeedItem {
        var item = FeedItem(tweet: embedded.tweet, feeds: [], author: embedded.author, avatarPath: embedded.avatarPath)
        item.media = embedded.media
        item.quoted = quoted
        item.inReplyTo = inReplyTo
        return item
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
    /// which a full dump of a large feed would do hundreds of thousands of times; the
    /// reposted original, the quoted post, the parent and the media too. What lies
    /// between two values never changes, so it is written as one constant run; ids are
    /// written digit by digit. A test checks the two agree.
    package func appendJSON(to out: inout [UInt8]) {
        func raw(_ text: StaticString) {
            text.withUTF8Buffer { out.append(contentsOf: $0) }
        }
        func string(_ value: String?) {
            if let value { JSONValue.writeString(value, to: &out) } else { raw("null") }
        }
        func id(_ value: (some SnowflakeID)?) {
            guard let value else { return raw("null") }
            out.append(UInt8(ascii: "\""))
            Self.appendDecimal(value.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        func number(_ value: Int?) {
            guard let value else { return raw("null") }
            Self.appendDecimal(Int64(value), to: &out)
        }
        raw(#"{"author":{"avatarPath":"#)
        string(avatarPath)
        raw(#","id":"#)
        id(tweet.authorID)
        raw(#","name":"#)
        string(author?.name)
        raw(#","username":"#)
        string(author?.username)
        raw(#"},"conversationId":"#)
        id(tweet.conversationID)
        raw(#","createdAt":""#)
        Timestamp.appendISO8601(tweet.createdAt, to: &out)
        raw(#"","feeds":["#)
        for (index, feed) in feeds.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: feed.rawValue.utf8)
            out.append(UInt8(ascii: "\""))
        }
        raw(#"],"id":"#)
        id(tweet.id)
        raw(#","inReplyTo":"#)
        if let parent = tweet.inReplyToID {
            raw(#"{"id":"#)
            id(parent)
            raw(#","username":"#)
            string(inReplyTo?.id == parent ? inReplyTo?.username : nil)
            out.append(UInt8(ascii: "}"))
        } else {
            raw("null")
        }
        raw(#","inReplyToId":"#)
        id(tweet.inReplyToID)
        raw(#","media":["#)
        for (index, item) in media.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            raw(#"{"altText":"#)
            string(item.media.altText)
            raw(#","height":"#)
            number(item.media.height)
            raw(#","path":"#)
            string(item.path)
            raw(#","type":"#)
            string(item.media.kind.rawValue)
            raw(#","width":"#)
            number(item.media.width)
            out.append(UInt8(ascii: "}"))
        }
        raw(#"],"quoted":"#)
        if retweetOf == nil, let quoted {
            embeddedItem(quoted, quoted: nil).appendJSON(to: &out)
        } else {
            raw("null")
        }
        raw(#","quotedId":"#)
        id(tweet.quotedID)
        raw(#","retweetOf":"#)
        if let retweetOf {
            embeddedItem(retweetOf, quoted: quoted).appendJSON(to: &out)
        } else {
            raw("null")
        }
        raw(#","retweetOfId":"#)
        id(tweet.retweetOfID)
        raw(#","text":"#)
        string(tweet.text)
        out.append(UInt8(ascii: "}"))
    }

    /// `String(value)`'s digits, without making the String.
    static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }
}
