import TwfeedCore

/// Which of an archive's files twfeed reads, by name: every generation since 2019.
struct ArchiveLayout: Sendable {
    /// A data file split in parts: `tweets.js`, `tweets-part1.js`, ... in part order.
    struct Parts: Sendable {
        var files: [SourceFile] = []
        var paths: [String] = []
    }

    var posts = Parts()
    var likes = Parts()
    var notes = Parts()
    var account: (path: String, file: SourceFile)?
    var manifest: (path: String, file: SourceFile)?
    var photos: [ArchivedPhoto] = []
    var ignored: [String] = []
    /// Whether the posts are 2019-2020's `tweet.js`.
    var olderPosts = false

    init(_ files: [String: SourceFile]) {
        var posts: [(Int, String)] = []
        var olderPosts: [(Int, String)] = []
        var likes: [(Int, String)] = []
        var notes: [(Int, String)] = []
        var ignored: Set<String> = []
        for path in files.keys where path.hasPrefix("data/") {
            let name = String(path.dropFirst("data/".count))
            if let slash = name.firstIndex(of: "/") {
                let folder = name[..<slash]
                if folder == "tweets_media" || folder == "tweet_media", let photo = Self.photo(path, file: files[path]!) {
                    photos.append(photo)
                } else if folder != "tweets_media" && folder != "tweet_media" {
                    ignored.insert("data/\(folder)/")
                }
                continue
            }
            switch Self.part(name) {
            case ("tweets", let part)?: posts.append((part, path))
            case ("tweet", let part)?: olderPosts.append((part, path))
            case ("like", let part)?: likes.append((part, path))
            case ("note-tweet", let part)?: notes.append((part, path))
            default:
                if name == "account.js" {
                    account = (path, files[path]!)
                } else if name == "manifest.js" {
                    manifest = (path, files[path]!)
                } else {
                    ignored.insert(path)
                }
            }
        }
        // An archive holds one generation; were both there, today's is read.
        if posts.isEmpty && !olderPosts.isEmpty {
            posts = olderPosts
            self.olderPosts = true
        } else {
            for (_, path) in olderPosts { ignored.insert(path) }
        }
        self.posts = Self.parts(posts, files)
        self.likes = Self.parts(likes, files)
        self.notes = Self.parts(notes, files)
        self.ignored = ignored.sorted()
        photos.sort { ($0.tweetID, $0.path) < ($1.tweetID, $1.path) }
    }

    /// Whether twfeed reads the data file at `path` (`data/tweets-part1.js`, `data/like.js`,
    /// `data/account.js`, …), present or not: the posts of either generation and their
    /// parts, the notes, the likes, the account. What a manifest may not list missing.
    static func isRead(_ path: String) -> Bool {
        guard path.hasPrefix("data/") else { return false }
        let name = String(path.dropFirst("data/".count))
        guard !name.contains("/") else { return false }
        if name == "account.js" { return true }
        guard let (stem, _) = part(name) else { return false }
        return readStems.contains(stem)
    }

    /// The data files twfeed reads, by their name without `-partN.js`.
    private static let readStems: Set<String> = ["tweets", "tweet", "like", "note-tweet"]

    private static func parts(_ found: [(Int, String)], _ files: [String: SourceFile]) -> Parts {
        let sorted = found.sorted { $0.0 < $1.0 }
        return Parts(files: sorted.map { files[$0.1]! }, paths: sorted.map(\.1))
    }

    /// `tweets.js` → ("tweets", 0); `tweets-part2.js` → ("tweets", 2).
    private static func part(_ name: String) -> (String, Int)? {
        guard name.hasSuffix(".js") else { return nil }
        let stem = name.dropLast(3)
        if let range = stem.range(of: "-part", options: .backwards) {
            let digits = stem[range.upperBound...]
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let part = Int(digits) else { return nil }
            return (String(stem[..<range.lowerBound]), part)
        }
        return (String(stem), 0)
    }

    /// `data/tweets_media/ID-NAME.EXT`, a photo (mp4 files are videos and GIFs).
    private static func photo(_ path: String, file: SourceFile) -> ArchivedPhoto? {
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        guard let dash = name.firstIndex(of: "-"), let id = TweetIDText.id(name[..<dash]) else { return nil }
        let mediaName = String(name[name.index(after: dash)...])
        let ext = mediaName.split(separator: ".").last?.lowercased() ?? ""
        guard mediaName.contains("."), ["jpg", "jpeg", "png", "gif", "webp"].contains(ext) else { return nil }
        return ArchivedPhoto(tweetID: id, path: file.name, mediaName: mediaName, byteCount: Int(file.size))
    }
}

/// A post id from the digits a media file's name starts with.
enum TweetIDText {
    static func id(_ text: Substring) -> TweetID? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return TweetID(String(text))
    }
}
