import TwfeedBilling

extension BillingSource {
    /// The source a feed's polls are billed to (and refused under).
    package init(_ feed: Feed) {
        switch feed {
        case .home: self = .home
        case .mentions: self = .mentions
        case .retweets: self = .retweets
        /// Only `Feed.polled` is ever read from the API: an import costs nothing.
        case .posts, .likes: preconditionFailure("the archive's feed \(feed.rawValue) is never billed")
        }
    }
}
