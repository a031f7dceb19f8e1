import Foundation
import TwfeedBase
import TwfeedCore

/// The `feed --json` object of a tweet (docs/INTERFACE.md, "JSON output"), its one
/// writer: what `feed`, `search`, `show` and `/api/feed` print, so they agree byte for byte.
extension FeedItem {
    /// A reposted original or a quoted post, in the shape of a feed item (no feeds: it is
    /// in none as itself); a reposted original carries its own quote and parent.
    func embeddedItem(_ embedded: EmbeddedTweet, quoted: EmbeddedTweet?) -> FeedItem {
        var item = FeedItem(tweet: embedded.tweet, feeds: [], author: embedded.author, avatarPath: embedded.avatarPath)
        item.media = embedded.media
        item.quoted = quoted
        item.inReplyTo = inReplyTo
        return item
    }

    /// The object, written straight into `out` with its keys in sorted order, as every
    /// object of twfeed's JSON: without building a dictionary and sorting its keys per
    /// tweet, which a full dump of a large feed would do hundreds of thousands of times;
    /// the reposted original, the quoted post, the parent and the media too. What lies
    /// between two values never changes, so it is written as one constant run; ids are
    /// written digit by digit. Tests/Golden/feed-items.jsonl holds its bytes.
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
        if tweet.authorID == .unknown {
            // An archive's like: nobody has said who wrote it yet.
            raw(#"{"author":null"#)
        } else {
            raw(#"{"author":{"avatarPath":"#)
            string(avatarPath)
            raw(#","id":"#)
            id(tweet.authorID)
            raw(#","name":"#)
            string(author?.name)
            raw(#","username":"#)
            string(author?.username)
            out.append(UInt8(ascii: "}"))
        }
        raw(#","conversationId":"#)
        id(tweet.conversationID)
        raw(#","createdAt":""#)
        Timestamp.appendISO8601(tweet.createdAt, to: &out)
        // Only on a post the account deleted (`twfeed delete`): every other object keeps
        // its bytes (Tests/Golden/feed-items.jsonl).
        if tweet.deletedAt != nil { raw(#"","deleted":true,"feeds":["#) } else { raw(#"","feeds":["#) }
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
            // The context read with the post (its stored parent's author first); a quoted
            // post's own parent has none: whom its answer named.
            string((inReplyTo?.id == parent ? inReplyTo?.username : nil) ?? tweet.repliedUser?.handle)
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
