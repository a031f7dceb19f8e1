/// A photo, video or GIF attached to a tweet (v2 `includes.media` by `media_key`, v1.1
/// `extended_entities.media`). twfeed shows a photo itself and a video or GIF as its
/// still, so each keeps the one picture it is shown by.
package struct Media: Sendable, Equatable, Hashable {
    package enum Kind: String, Sendable, Equatable, Hashable, CaseIterable {
        case photo
        case video
        case animatedGIF = "animated_gif"
    }

    /// v2's `media_key` (v1.1: `id_str` with the type's prefix, as v2 spells it).
    package var key: String
    package var kind: Kind
    /// The picture shown: the photo (`url`, `media_url_https`), or a video's or GIF's
    /// still (`preview_image_url`, v1.1's `media_url_https`). Nil when the API gave none.
    package var imageURL: String?
    package var width: Int?
    package var height: Int?
    package var altText: String?

    package init(key: String, kind: Kind, imageURL: String?, width: Int? = nil, height: Int? = nil, altText: String? = nil) {
        self.key = key
        self.kind = kind
        self.imageURL = imageURL
        self.width = width
        self.height = height
        self.altText = altText
    }
}
