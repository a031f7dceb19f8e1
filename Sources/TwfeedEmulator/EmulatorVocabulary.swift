import Foundation

/// The names a v2 answer gives a post's fields. X's OpenAPI document of August 2026
/// (2.167, 2.168) renamed them; the recorded answers and the reference pages use the old
/// ones, and a client must read both. The request side is unchanged: the emulator takes
/// the names the API has always accepted (`tweet.fields`, `referenced_tweets.id`, …)
/// in either vocabulary.
public enum EmulatorVocabulary: String, Sendable, CaseIterable {
    /// `referenced_tweets`, `note_tweet`, `includes.tweets`, `edit_history_tweet_ids`,
    /// `public_metrics.retweet_count`, problem types under `https://api.twitter.com/2/problems/`.
    case tweet
    /// `referenced_posts`, `note_post`, `includes.posts`, `edit_history_post_ids`,
    /// `public_metrics.repost_count`, problem types under `https://api.x.com/2/problems/`.
    case post

    /// The old spelling and the new, each a whole JSON key (`"name":`) or the problem
    /// types' prefix. A key can only match a key: inside a JSON string every `"` is
    /// escaped, so `"tweets":` never occurs in a post's text.
    static let renames: [(old: String, new: String)] = [
        ("\"referenced_tweets\":", "\"referenced_posts\":"),
        ("\"note_tweet\":", "\"note_post\":"),
        ("\"edit_history_tweet_ids\":", "\"edit_history_post_ids\":"),
        ("\"retweet_count\":", "\"repost_count\":"),
        ("\"tweets\":", "\"posts\":"),
        ("https://api.twitter.com/2/problems/", "https://api.x.com/2/problems/"),
    ]

    /// A v2 answer's body in this vocabulary (the emulator writes the old one).
    func spelled(_ body: [UInt8]) -> [UInt8] {
        guard self == .post, !body.isEmpty else { return body }
        var text = String(decoding: body, as: UTF8.self)
        for rename in Self.renames { text = text.replacingOccurrences(of: rename.old, with: rename.new) }
        return Array(text.utf8)
    }
}
