import Foundation
import TwfeedBase
import TwfeedCore

/// The archive's own spellings, for the writer: a data file's assignment, a post's
/// v1.1-shaped object (HTML-escaped text, every number a string, entity indices in code
/// points of the escaped text), a note, the manifest.
enum ArchiveText {
    /// `window.GLOBAL = [ ... ]`, pretty-printed as X prints it (`"key" : value`, two spaces).
    static func dataFile(global: String, _ elements: [JSONValue]) -> Data {
        var out: [UInt8] = Array("window.\(global) = [".utf8)
        for (index, element) in elements.enumerated() {
            out += Array((index == 0 ? " " : ", ").utf8)
            pretty(element, indent: 0, to: &out)
        }
        out += Array(" ]".utf8)
        return Data(out)
    }

    private static func pretty(_ value: JSONValue, indent: Int, to out: inout [UInt8]) {
        let inner = [UInt8](repeating: 0x20, count: indent + 2)
        switch value {
        case .object(let members) where !members.isEmpty:
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                out += index == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A]
                out += inner
                JSONValue.writeString(key, to: &out)
                out += Array(" : ".utf8)
                pretty(members[key]!, indent: indent + 2, to: &out)
            }
            out.append(0x0A)
            out += [UInt8](repeating: 0x20, count: indent)
            out.append(UInt8(ascii: "}"))
        case .array(let elements) where !elements.isEmpty:
            out += Array("[ ".utf8)
            for (index, element) in elements.enumerated() {
                if index > 0 { out += Array(", ".utf8) }
                pretty(element, indent: indent, to: &out)
            }
            out += Array(" ]".utf8)
        case .array: out += Array("[ ]".utf8)
        default: out += Array(value.serialized.utf8)
        }
    }

    /// `&`, `<` and `>` as the archive escapes them in a post's text.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The post's object and, for a long post, its note.
    static func post(_ post: ArchiveWriter.Post, account: ArchiveAccount, older: Bool) -> (JSONValue, JSONValue?) {
        let id = post.id.description
        var note: JSONValue?
        var shown = post.text
        if post.text.count > ArchiveWriter.noteThreshold && !older {
            shown = String(post.text.prefix(ArchiveWriter.noteThreshold - 10)) + "…"
            let mentions = post.inReplyToID == nil ? "" : NoteIndex.leadingMentions(post.text)
            let noteText = String(post.text.dropFirst(mentions.count))
            let urls: [JSONValue] = post.links.filter { noteText.contains($0.url) }.map { link in
                var url: [String: JSONValue] = ["shortUrl": .string(link.url), "expandedUrl": .string(link.expandedURL)]
                if let display = link.displayURL { url["displayUrl"] = .string(display) }
                return .object(url)
            }
            note = .object([
                "noteTweetId": .string(String(post.id.rawValue / 2 + 7)),
                "createdAt": .string(Timestamp.iso8601Milliseconds(post.createdAt)),
                "updatedAt": .string(Timestamp.iso8601Milliseconds(post.createdAt)),
                "core": .object([
                    "text": .string(noteText), "urls": .array(urls), "mentions": .array([]), "hashtags": .array([]),
                    "cashtags": .array([]), "styletags": .array([]),
                ]),
            ])
        }
        let mediaURL = post.photos.isEmpty ? nil : "https://t.co/m\(id.suffix(8))"
        var escaped = escape(shown)
        if let mediaURL { escaped += " " + mediaURL }
        func indices(of fragment: String) -> JSONValue? {
            guard let range = escaped.range(of: fragment) else { return nil }
            let start = escaped.unicodeScalars.distance(from: escaped.unicodeScalars.startIndex, to: range.lowerBound)
            return .array([.string(String(start)), .string(String(start + fragment.unicodeScalars.count))])
        }
        let urls: [JSONValue] = post.links.compactMap { link in
            guard let at = indices(of: link.url) else { return nil }
            var url: [String: JSONValue] = ["url": .string(link.url), "expanded_url": .string(link.expandedURL), "indices": at]
            if let display = link.displayURL { url["display_url"] = .string(display) }
            return .object(url)
        }
        var object: [String: JSONValue] = [
            "id": .string(id), "id_str": .string(id),
            "created_at": .string(Timestamp.twitterDate(post.createdAt)),
            "full_text": .string(escaped),
            "truncated": .bool(false), "favorited": .bool(false), "retweeted": .bool(false),
            "favorite_count": .string("0"), "retweet_count": .string("0"), "lang": .string("en"),
            "display_text_range": .array([.string("0"), .string(String(escape(shown).unicodeScalars.count))]),
            "source": .string("<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>"),
            "entities": .object([
                "hashtags": .array([]), "symbols": .array([]), "user_mentions": .array([]), "urls": .array(urls),
            ]),
        ]
        if let reply = post.inReplyToID {
            object["in_reply_to_status_id_str"] = .string(reply.description)
            object["in_reply_to_status_id"] = .string(reply.description)
            if let id = post.repliedUser?.id {
                object["in_reply_to_user_id"] = .string(id.description)
                object["in_reply_to_user_id_str"] = .string(id.description)
            }
            if let username = post.repliedUser?.username { object["in_reply_to_screen_name"] = .string(username) }
        }
        if let quoted = post.quotedID { object["quoted_status_id_str"] = .string(quoted.description) }
        if !older {
            object["edit_info"] = .object(["initial": .object(["editTweetIds": .array([.string(id)]), "editsRemaining": .string("5")])])
        }
        if let mediaURL {
            let media: [JSONValue] = post.photos.enumerated().map { index, photo in
                .object([
                    "id": .string(photo.mediaID), "id_str": .string(photo.mediaID), "type": .string("photo"),
                    "url": .string(mediaURL), "indices": indices(of: mediaURL) ?? .array([]),
                    "media_url": .string("http://pbs.twimg.com/media/\(photo.name)"),
                    "media_url_https": .string("https://pbs.twimg.com/media/\(photo.name)"),
                    "expanded_url": .string("https://twitter.com/\(account.username)/status/\(id)/photo/\(index + 1)"),
                    "display_url": .string("pic.twitter.com/m\(id.suffix(8))"),
                    "sizes": .object([
                        "large": .object(["w": .string(String(photo.width)), "h": .string(String(photo.height)), "resize": .string("fit")]),
                        "thumb": .object(["w": .string("150"), "h": .string("150"), "resize": .string("crop")]),
                    ]),
                ])
            }
            object["extended_entities"] = .object(["media": .array(media)])
            var entities = object["entities"]!.object!
            entities["media"] = .array([media[0]])
            object["entities"] = .object(entities)
        }
        return (.object(object), note)
    }

    static func manifest(account: ArchiveAccount, counts: [(type: String, file: String, global: String, count: Int)]) -> Data {
        var types: [String: [JSONValue]] = [:]
        for entry in counts {
            types[entry.type, default: []].append(
                .object([
                    "fileName": .string(entry.file), "globalName": .string(entry.global), "count": .string(String(entry.count)),
                ])
            )
        }
        let config: JSONValue = .object([
            "userInfo": .object([
                "accountId": .string(account.id.description), "userName": .string(account.username),
                "displayName": .string(account.displayName ?? account.username),
            ]),
            "archiveInfo": .object(["isPartialArchive": .bool(false), "maxPartSizeBytes": .string("53687091200")]),
            "dataTypes": .object(types.mapValues { .object(["files": .array($0)]) }),
        ])
        return Data("window.__THAR_CONFIG = \(config.serialized)".utf8)
    }
}
