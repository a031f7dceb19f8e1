import TwfeedBilling

extension BillingSource {
    /// The source a feed's polls are billed to (and refused under).
    package init(_ feed: Feed) {
        switch feed {
        case .home: self = .home
        case .mentions: self = .mentions
        case .retweets: self = .retweets
        }
    }
}
