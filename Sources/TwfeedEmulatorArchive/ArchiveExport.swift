import Foundation
import TwfeedArchive
import TwfeedCore
import TwfeedEmulator

/// `twfeed-emulator --write-archive PATH`: the archive X would send the emulator's
/// signed-in user, in today's format (`ArchiveWriter`): its own posts (a long post's
/// whole text as a note, a repost as its cut "RT @x: …" text, a reply with whom it
/// answers), the photos of its posts
/// with the image host's bytes, and likes: the world keeps none, so the newest home
/// posts stand in. PATH ending in `.zip` is a zip,
/// anything else a folder.
package enum ArchiveExport {
    package static let likeCount = 20

    package static func write(_ emulator: Emulator, to path: String) throws(ArchiveError) -> (posts: Int, likes: Int, photos: Int) {
        let account = ArchiveAccount(id: UserID(Emulator.accountUserID)!, username: Emulator.accountUsername)
        var photos = 0
        let posts = emulator.ownTweetIDs().reversed().compactMap { emulator.tweet($0) }.compactMap { tweet -> ArchiveWriter.Post? in
            guard let id = TweetID(tweet.id) else { return nil }
            var text = tweet.longText ?? tweet.text
            // X's archive keeps a repost as its cut text, never longer than a post.
            if tweet.retweetOfID != nil, text.count > 140 { text = String(text.prefix(139)) + "…" }
            let pictures = tweet.media.filter { $0.type == "photo" }.map { media in
                let name = media.path.split(separator: "/").last.map(String.init) ?? media.key
                let bytes = emulator.mediaBytes(path: media.path).map { Data($0) }
                if bytes != nil { photos += 1 }
                return ArchiveWriter.Photo(
                    mediaID: String(media.key.drop(while: { $0 != "_" }).dropFirst()),
                    name: name,
                    bytes: bytes,
                    width: media.width,
                    height: media.height
                )
            }
            return ArchiveWriter.Post(
                id: id,
                createdAt: tweet.createdAt,
                text: text,
                inReplyToID: tweet.inReplyToID.flatMap(TweetID.init),
                // As X's archive does: the parent's author by id and handle.
                repliedUser: tweet.inReplyToID.flatMap { emulator.tweet($0) }.flatMap { parent in
                    RepliedUser(id: UserID(parent.authorID), username: parent.authorUsername)
                },
                quotedID: tweet.quotedID.flatMap(TweetID.init),
                photos: pictures
            )
        }
        let likes = emulator.allTweetIDs(.home).prefix(likeCount).compactMap { emulator.tweet($0) }.compactMap { tweet in
            TweetID(tweet.id).map {
                ArchivedLike(id: $0, text: tweet.text, expandedURL: "https://twitter.com/i/web/status/\(tweet.id)")
            }
        }
        let writer = ArchiveWriter(account: account, posts: posts, likes: likes)
        try writer.write(to: path, as: path.hasSuffix(".zip") ? .zip : .folder)
        return (posts.count, likes.count, photos)
    }
}
