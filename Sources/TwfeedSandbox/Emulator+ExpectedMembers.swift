import TwfeedCore
import TwfeedEmulator

extension EmulatorFeed {
    /// The emulator's feed of the same name.
    package init(_ feed: Feed) { self.init(rawValue: feed.rawValue)! }
}

extension Emulator {
    /// What the daemon's feed holds with `api.ownsApp` (the default), newest id first: the
    /// ground truth, and in retweets also every own original someone reposted, which the
    /// own originals' repost counts show even beyond retweets-of-me's reach.
    package func expectedMembers(_ feed: Feed, dialect: EmulatorDialect) -> [String] {
        let truth = groundTruth(EmulatorFeed(feed), dialect: dialect)
        guard feed == .retweets else { return truth }
        let reposted = ownTweetIDs().filter { id in tweet(id).map { $0.retweetCount > 0 && $0.retweetOfID == nil } ?? false }
        return Set(truth).union(reposted).sorted { UInt64($0)! > UInt64($1)! }
    }
}
