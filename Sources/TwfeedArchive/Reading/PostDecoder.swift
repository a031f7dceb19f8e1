import Foundation
import TwfeedBase
import TwfeedCore

/// A post of `tweets.js` (or 2019's `tweet.js`) as the store keeps the API's posts: the
/// archive's object is v1.1-shaped, so it is read by the same rules as a v1.1 status
/// (`V11Status`, `TextCleaning`, `LinkCollector`), with every number a string.
enum PostDecoder {
    static func decode(
        _ element: DataElement,
        raw: String,
        account: UserID,
        notes: inout NoteIndex,
        file: String,
        index: Int
    ) throws(ArchiveError) -> Tweet {
        let post = element.object
        guard let id = (post.text("id_str") ?? post.text("id")).flatMap(TweetID.init) else {
            throw ArchiveError(.badData, file: file, "entry \(index + 1) has no id_str")
        }
        guard let createdText = post.text("created_at") else {
            throw ArchiveError(.badData, file: file, "entry \(index + 1) (post \(id)) has no created_at")
        }
        guard let created = Timestamp.parseTwitterDate(createdText) else {
            throw ArchiveError(.badData, file: file, "entry \(index + 1) (post \(id)): created_at \"\(createdText)\" is not a date")
        }
        guard post["full_text"]?.string != nil || post["text"]?.string != nil else {
            throw ArchiveError(.badData, file: file, "entry \(index + 1) (post \(id)) has no full_text")
        }
        var text = TextCleaning.unescapeHTML(V11Status.textWithoutMediaLink(post, id: id))
        var links = LinkCollector.links(in: post)
        if !notes.isEmpty, let matched = notes.match(createdAt: created, text: text) {
            text = matched.text
            for link in matched.note.links where !links.contains(where: { $0.url == link.url }) { links.append(link) }
        }
        let replyTo = post.text("in_reply_to_status_id_str").flatMap(TweetID.init)
        return Tweet(
            id: id,
            authorID: account,
            createdAt: created,
            text: text,
            inReplyToID: replyTo,
            repliedUser: V11Status.repliedUser(post),
            // A repost is only its cut "RT @x: …" text: the archive names no original.
            retweetOfID: nil,
            quotedID: post.text("quoted_status_id_str").flatMap(TweetID.init),
            // As v1.1: its own conversation when it replies to nothing, else the store's to settle.
            conversationID: replyTo == nil ? id : nil,
            media: V11Status.media(post),
            links: links,
            rawJSON: raw
        )
    }
}

extension ArchivedLike {
    /// `{"like": {"tweetId", "fullText", "expandedUrl"}}`: no author, no time.
    static func decode(_ object: JSONValue, file: String, index: Int) throws(ArchiveError) -> ArchivedLike {
        guard let id = object.text("tweetId").flatMap(TweetID.init) else {
            throw ArchiveError(.badData, file: file, "entry \(index + 1) has no tweetId")
        }
        return ArchivedLike(
            id: id,
            text: object.text("fullText").map(TextCleaning.unescapeHTML),
            expandedURL: object.text("expandedUrl")
        )
    }
}

extension ArchiveAccount {
    /// `{"account": {"accountId", "username", "accountDisplayName", ...}}`.
    static func decode(_ object: JSONValue, file: String) throws(ArchiveError) -> ArchiveAccount {
        guard let id = object.text("accountId").flatMap(UserID.init), let username = object.text("username") else {
            throw ArchiveError(.badData, file: file, "the account has no accountId or username")
        }
        return ArchiveAccount(id: id, username: username, displayName: object.text("accountDisplayName"))
    }
}
