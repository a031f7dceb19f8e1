import Foundation
import TwfeedCore

/// One entry of `like.js`: the archive gives a liked post's id, and at most a cut text and
/// a link; neither its author nor when it was written.
package struct ArchivedLike: Sendable, Equatable {
    package var id: TweetID
    /// `fullText`, HTML entities decoded; nil when the entry has none.
    package var text: String?
    package var expandedURL: String?

    package init(id: TweetID, text: String? = nil, expandedURL: String? = nil) {
        self.id = id
        self.text = text
        self.expandedURL = expandedURL
    }
}
