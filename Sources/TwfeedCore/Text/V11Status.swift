/// What a v1.1-shaped status object says about its text and media: read by the v1.1
/// client and by the archive reader (X's archive keeps posts in that shape, with every
/// number a string), so both store a post the same way.
package enum V11Status {
    /// `full_text` without the `t.co` link of its media at the end (the post shows the
    /// media instead): the link of `entities.media` / `extended_entities.media`, or, in
    /// answers from before 2022, a link of `entities.urls` to the post's own photo or
    /// video page.
    package static func textWithoutMediaLink(_ status: JSONValue, id: TweetID) -> String {
        let text = status["full_text"]?.string ?? status["text"]?.string ?? ""
        let entities = status["entities"]
        let media = (status["extended_entities"]?["media"]?.array ?? []) + (entities?["media"]?.array ?? [])
        let ownPages = (entities?["urls"]?.array ?? []).filter { link in
            link["expanded_url"]?.string.map { TextCleaning.isOwnMediaPage($0, of: id) } == true
        }
        return TextCleaning.droppingTrailingLinks((media + ownPages).compactMap { $0["url"]?.string }, from: text)
    }

    /// Whom a reply answers, as the status says it: `in_reply_to_user_id_str` and
    /// `in_reply_to_screen_name` (the archive writes both as text too). Nil for a status
    /// that replies to nothing (`in_reply_to_status_id_str` absent) or says neither.
    package static func repliedUser(_ status: JSONValue) -> RepliedUser? {
        guard status["in_reply_to_status_id_str"]?.string != nil else { return nil }
        return RepliedUser(
            id: status["in_reply_to_user_id_str"]?.string.flatMap(UserID.init),
            username: status["in_reply_to_screen_name"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        )
    }

    /// `extended_entities.media[]` (or `entities.media[]`, which holds only the first):
    /// the picture `media_url_https`, the size of the original (`original_info`, else
    /// `sizes.large`), `ext_alt_text`. Keys as v2 spells them: the type's prefix and
    /// `id_str` (`3_` photo, `7_` video, `16_` GIF), so one item has one key whichever
    /// dialect read it. A size may be a number or, in the archive, its text.
    package static func media(_ status: JSONValue) -> [Media] {
        let items = (status["extended_entities"]?["media"] ?? status["entities"]?["media"])?.array ?? []
        return items.compactMap { item in
            guard let id = item["id_str"]?.string, let kind = item["type"]?.string.flatMap(Media.Kind.init(rawValue:)) else {
                return nil
            }
            let original = item["original_info"]
            let large = item["sizes"]?["large"]
            return Media(
                key: Media.keyPrefix(kind) + id,
                kind: kind,
                imageURL: item["media_url_https"]?.string ?? item["media_url"]?.string,
                width: (original?["width"] ?? large?["w"])?.integer,
                height: (original?["height"] ?? large?["h"])?.integer,
                altText: item["ext_alt_text"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            )
        }
    }
}

extension Media {
    /// The prefix of a v2 `media_key` for each type: `3_` a photo, `7_` a video, `16_`
    /// an animated GIF (the key is the prefix and the media's id).
    package static func keyPrefix(_ kind: Kind) -> String {
        switch kind {
        case .photo: "3_"
        case .video: "7_"
        case .animatedGIF: "16_"
        }
    }
}

extension JSONValue {
    /// A whole number, or a string holding one (the archive writes every number as text).
    fileprivate var integer: Int? { int ?? string.flatMap { Int($0) } }
}
