/// A photo, a video or an animated GIF attached to a tweet, as the image host serves its
/// picture: a photo at its size, a video's or GIF's still. Made once with the tweet,
/// deterministically from the seed (`TweetStore.decorate`).
struct EmulatedMedia: Sendable, Equatable {
    enum Kind: String, Sendable {
        case photo
        case video
        case animatedGIF = "animated_gif"

        /// v2's `media_key` prefix: `3_` a photo, `7_` a video, `16_` a GIF.
        var keyPrefix: String {
            switch self {
            case .photo: "3_"
            case .video: "7_"
            case .animatedGIF: "16_"
            }
        }
    }

    let id: UInt64
    let kind: Kind
    /// The original's size in pixels: what v2 `width`/`height` and v1.1 `original_info`
    /// and `sizes.large` report, and the size of the served picture.
    let width: Int
    let height: Int
    /// What the author wrote for screen readers, if anything.
    let altText: String?
    /// The picture's file extension: the drawn pictures are PNGs, an uploaded photo keeps
    /// its own format (`ImageFormat.fileExtension`).
    var fileExtension = "png"

    /// v2's `media_key` (v1.1 has `id_str` and the type instead).
    var key: String { kind.keyPrefix + String(id) }

    /// The picture's path on the image host, shaped as pbs.twimg.com's: `/media/ID.png`
    /// for a photo, `/ext_tw_video_thumb/ID/pu/img/ID.png` for a video's still,
    /// `/tweet_video_thumb/ID.png` for a GIF's.
    var path: String {
        switch kind {
        case .photo: "/media/\(id).\(fileExtension)"
        case .video: "/ext_tw_video_thumb/\(id)/pu/img/\(id).png"
        case .animatedGIF: "/tweet_video_thumb/\(id).png"
        }
    }

    /// The media id in a picture path of `path`'s shapes, or nil. A photo's extension is
    /// any a photo can have; the image host answers 404 unless it is the photo's own.
    static func id(inPath parts: [String]) -> UInt64? {
        func stem(_ name: String, extensions: [String] = ["png"]) -> UInt64? {
            guard let dot = name.lastIndex(of: "."), extensions.contains(String(name[name.index(after: dot)...])) else { return nil }
            return UInt64(name[..<dot])
        }
        switch (parts.first, parts.count) {
        case ("media", 2):
            return stem(parts[1], extensions: ImageFormat.allCases.map(\.fileExtension))
        case ("tweet_video_thumb", 2):
            return stem(parts[1])
        case ("ext_tw_video_thumb", 5) where parts[2] == "pu" && parts[3] == "img":
            guard let id = UInt64(parts[1]), stem(parts[4]) == id else { return nil }
            return id
        default:
            return nil
        }
    }

    /// The size scaled to fit `limit` on its longer side (v1.1's `sizes`), never enlarged.
    func fitted(_ limit: Int) -> (width: Int, height: Int) {
        let longer = max(width, height)
        guard longer > limit else { return (width, height) }
        return (max(1, width * limit / longer), max(1, height * limit / longer))
    }
}
