import TwfeedBase
import TwfeedCore

/// `twfeed show --json` (INTERFACE.md, "Conversations, photos, long posts"): one object
/// `{"ancestors", "replies", "tweet"}` in the sorted key order every object of twfeed's
/// JSON has; each post is written by `FeedItem.appendJSON`, so `show` prints a post
/// byte for byte as `feed --json` and `/api/feed` do. Ancestors run from the parent up
/// to the root; one not stored is `{"id", "missing": true, "unavailable"}`.
extension Conversation {
    package func appendJSON(to out: inout [UInt8]) {
        func raw(_ text: StaticString) {
            text.withUTF8Buffer { out.append(contentsOf: $0) }
        }
        raw(#"{"ancestors":["#)
        for (index, ancestor) in ancestors.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            switch ancestor {
            case .stored(let item): item.appendJSON(to: &out)
            case .missing(let id, let unavailable):
                raw(#"{"id":""#)
                FeedItem.appendDecimal(id.rawValue, to: &out)
                raw(#"","missing":true,"unavailable":"#)
                if let unavailable { JSONValue.writeString(unavailable, to: &out) } else { raw("null") }
                out.append(UInt8(ascii: "}"))
            }
        }
        raw(#"],"replies":["#)
        for (index, reply) in replies.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            reply.appendJSON(to: &out)
        }
        raw(#"],"tweet":"#)
        tweet.appendJSON(to: &out)
        out.append(UInt8(ascii: "}"))
    }
}
