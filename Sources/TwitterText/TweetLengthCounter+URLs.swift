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
