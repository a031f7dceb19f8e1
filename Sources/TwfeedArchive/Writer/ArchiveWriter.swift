import Foundation
import TwfeedBase
import TwfeedCore

/// Writes an archive as X does (today's format, or 2019's with `tweet.js`), from posts,
/// likes, an account and photos: a zip (deflated or stored) or a folder. A long post
/// (over 280 characters) is written as X writes one: its cut text in `tweets.js` and its
/// whole text in `note-tweet.js` (a reply's note without the leading @mentions). What the
/// emulator's `--write-archive` and the tests' round trips use.
package struct ArchiveWriter: Sendable {
    package enum Generation: Sendable, Equatable {
        /// `tweets.js` (+ parts), `{"tweet": {...}}`, `note-tweet.js`, `manifest.js`, `tweets_media/`.
        case current
        /// 2019's `tweet.js` / `window.YTD.tweet.part0` with bare objects, `tweet_media/`, no notes or manifest.
        case year2019
    }

    package enum Container: Sendable, Equatable {
        case zip
        /// A zip whose entries are stored, not deflated.
        case storedZip
        case folder
    }

    package struct Photo: Sendable, Equatable {
        /// The media's id (`id_str`).
        package var mediaID: String
        /// NAME.EXT of its `media_url_https` (`https://pbs.twimg.com/media/NAME.EXT`).
        package var name: String
        /// Its file in the media folder; nil writes the post's entity alone.
        package var bytes: Data?
        package var width: Int
        package var height: Int

        package init(mediaID: String, name: String, bytes: Data?, width: Int = 1200, height: Int = 800) {
            self.mediaID = mediaID
            self.name = name
            self.bytes = bytes
            self.width = width
            self.height = height
        }
    }

    package struct Post: Sendable, Equatable {
        package var id: TweetID
        package var createdAt: Date
        /// The whole text, unescaped.
        package var text: String
        package var inReplyToID: TweetID?
        /// Whom it answers (`in_reply_to_user_id_str`, `in_reply_to_screen_name`), as X's
        /// archive names the author of every reply's parent.
        package var repliedUser: RepliedUser?
        package var quotedID: TweetID?
        /// The links its text holds (`url` is the `t.co` form in `text`).
        package var links: [TweetLink]
        package var photos: [Photo]

        package init(
            id: TweetID,
            createdAt: Date,
            text: String,
            inReplyToID: TweetID? = nil,
            repliedUser: RepliedUser? = nil,
            quotedID: TweetID? = nil,
            links: [TweetLink] = [],
            photos: [Photo] = []
        ) {
            self.id = id
            self.createdAt = createdAt
            self.text = text
            self.inReplyToID = inReplyToID
            self.repliedUser = repliedUser
            self.quotedID = quotedID
            self.links = links
            self.photos = photos
        }
    }

    package var account: ArchiveAccount
    package var posts: [Post]
    package var likes: [ArchivedLike]
    package var generation: Generation = .current
    /// Posts per data file: more go to `tweets-part1.js`, ...
    package var postsPerPart = 50_000
    /// A folder above `data/`, as some unpackers leave.
    package var topFolder: String?
    /// ZIP64 records even when the sizes do not need them.
    package var forceZip64 = false
    /// Longer texts than this go to `note-tweet.js`.
    package static let noteThreshold = 280

    package init(account: ArchiveAccount, posts: [Post], likes: [ArchivedLike] = []) {
        self.account = account
        self.posts = posts
        self.likes = likes
    }

    package func write(to path: String, as container: Container) throws(ArchiveError) {
        let files = self.files()
        let prefix = topFolder.map { $0 + "/" } ?? ""
        switch container {
        case .folder:
            for (name, data) in files {
                let url = URL(fileURLWithPath: path).appendingPathComponent(prefix + name)
                do {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try data.write(to: url)
                } catch {
                    throw ArchiveError(.unreadable, file: url.path, "cannot be written: \(error.localizedDescription)")
                }
            }
        case .zip, .storedZip:
            let writer = try ZipWriter(path: path, forceZip64: forceZip64)
            for (name, data) in files {
                // Photos are stored, as X stores its JPEGs; data files deflated.
                try writer.add(prefix + name, data, deflate: container == .zip && name.hasSuffix(".js"))
            }
            try writer.finish()
        }
    }

    /// Every file of the archive, by its path under the archive's root, in writing order.
    package func files() -> [(String, Data)] {
        let older = generation == .year2019
        let postName = older ? "tweet" : "tweets"
        let mediaFolder = older ? "data/tweet_media" : "data/tweets_media"
        var files: [(String, Data)] = []
        var counts: [(type: String, file: String, global: String, count: Int)] = []
        func add(_ type: String, _ file: String, _ global: String, _ elements: [JSONValue]) {
            files.append((file, ArchiveText.dataFile(global: global, elements)))
            counts.append((type, file, global, elements.count))
        }
        add("account", "data/account.js", "YTD.account.part0", [.object(["account": accountObject()])])

        var notes: [JSONValue] = []
        var postElements: [JSONValue] = []
        for post in posts {
            let (object, note) = ArchiveText.post(post, account: account, older: older)
            postElements.append(older ? object : .object(["tweet": object]))
            if let note, !older { notes.append(.object(["noteTweet": note])) }
        }
        let chunks = stride(from: 0, to: max(postElements.count, 1), by: max(postsPerPart, 1)).map {
            Array(postElements[$0..<min($0 + max(postsPerPart, 1), postElements.count)])
        }
        for (part, chunk) in chunks.enumerated() {
            let file = part == 0 ? "data/\(postName).js" : "data/\(postName)-part\(part).js"
            add(postName, file, "YTD.\(postName).part\(part)", chunk)
        }
        add("like", "data/like.js", "YTD.like.part0", likes.map(Self.likeObject))
        if !older {
            add("noteTweet", "data/note-tweet.js", "YTD.note_tweet.part0", notes)
            add("deletedTweets", "data/deleted-tweets.js", "YTD.deleted_tweets.part0", [])
        }
        for post in posts {
            for photo in post.photos {
                if let bytes = photo.bytes { files.append(("\(mediaFolder)/\(post.id)-\(photo.name)", bytes)) }
            }
        }
        if !older { files.append(("data/manifest.js", ArchiveText.manifest(account: account, counts: counts))) }
        return files
    }

    private func accountObject() -> JSONValue {
        var account: [String: JSONValue] = [
            "email": .string("\(self.account.username)@example.invalid"),
            "createdVia": .string("web"),
            "username": .string(self.account.username),
            "accountId": .string(self.account.id.description),
            "createdAt": .string("2011-03-02T09:00:00.000Z"),
        ]
        if let name = self.account.displayName { account["accountDisplayName"] = .string(name) }
        return .object(account)
    }

    private static func likeObject(_ like: ArchivedLike) -> JSONValue {
        var object: [String: JSONValue] = ["tweetId": .string(like.id.description)]
        if let text = like.text { object["fullText"] = .string(ArchiveText.escape(text)) }
        if let url = like.expandedURL { object["expandedUrl"] = .string(url) }
        return .object(["like": .object(object)])
    }
}

extension ArchiveWriter {
    /// Packs an unpacked archive's folder into a zip as X sends it (`.js` files deflated,
    /// the rest stored), names in sorted order: the same archive in both forms.
    package static func zip(folder: String, to path: String, deflate: Bool = true, forceZip64: Bool = false) throws(ArchiveError) {
        let root = URL(fileURLWithPath: folder).standardizedFileURL
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw ArchiveError(.unreadable, file: folder, "cannot be listed")
        }
        var names: [String] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            names.append(String(url.standardizedFileURL.path.dropFirst(root.path.count + 1)))
        }
        let writer = try ZipWriter(path: path, forceZip64: forceZip64)
        for name in names.sorted() {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).path) else {
                throw ArchiveError(.unreadable, file: name, "cannot be read")
            }
            try writer.add(name, data, deflate: deflate && name.hasSuffix(".js"))
        }
        try writer.finish()
    }
}
