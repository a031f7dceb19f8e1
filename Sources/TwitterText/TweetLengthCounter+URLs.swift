import Foundation

extension TweetLengthCounter {
    /// How many URLs twitter-text finds in `text` (after the same NFC normalization as
    /// `measure`): the links the API turns into t.co links, bare domains such as
    /// `example.com` included. X prices a post with a URL apart, so its callers need the
    /// answer, not only the 23 characters each URL weighs.
    public static func urlCount(in text: String) -> Int {
        URLDetector.entities(in: Array(text.precomposedStringWithCanonicalMapping.utf16)).count
    }
}

extension TweetLengthCounter {
    /// The URLs twitter-text links in `text` (taken NFC), in order, each as the text
    /// spells it (a bare domain stays bare): what the API turns into `t.co` links.
    public static func urls(in text: String) -> [String] {
        let units = Array(text.precomposedStringWithCanonicalMapping.utf16)
        return URLDetector.entities(in: units).map { entity in
            let end = min(units.count, entity.start + entity.length)
            return String(decoding: units[entity.start..<end], as: UTF16.self)
        }
    }
}
