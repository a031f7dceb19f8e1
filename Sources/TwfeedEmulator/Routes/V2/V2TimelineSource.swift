/// What a v2 timeline request reads: one of the three feeds, or the account's own posts
/// (`GET /2/users/:id/tweets`, which settles a post whose answer was lost).
enum V2TimelineSource: Equatable {
    case home, mentions, retweets, ownPosts

    init(_ feed: EmulatorFeed) {
        switch feed {
        case .home: self = .home
        case .mentions: self = .mentions
        case .retweets: self = .retweets
        }
    }

    /// The query parameters each endpoint accepts; anything else (v1.1's `count`, or
    /// `since_id` on reposts_of_me) is a 400, as on the real API.
    var allowedParameters: Set<String> {
        switch self {
        case .home, .ownPosts:
            V2Routes.fieldParameters.union([
                "max_results", "since_id", "until_id", "pagination_token", "start_time",
                "end_time", "exclude",
            ])
        case .mentions:
            V2Routes.fieldParameters.union([
                "max_results", "since_id", "until_id", "pagination_token", "start_time",
                "end_time",
            ])
        case .retweets:
            V2Routes.fieldParameters.union(["max_results", "pagination_token"])
        }
    }

    var maxResultsRange: ClosedRange<Int> {
        switch self {
        case .mentions, .ownPosts: 5...100
        case .home, .retweets: 1...100
        }
    }

    /// reposts_of_me may be in repost order, not id order, so its `pagination_token` carries a
    /// position in the list instead of an id bound.
    var pagesByPosition: Bool { self == .retweets }

    /// The reachable slots, newest first.
    func slots(_ store: TweetStore) -> [UInt64] {
        switch self {
        case .home: store.reachableSlots(.home, .v2)
        case .mentions: store.reachableSlots(.mentions, .v2)
        case .retweets: store.reachableSlots(.retweets, .v2)
        case .ownPosts: store.reachableOwnTweets()
        }
    }
}
