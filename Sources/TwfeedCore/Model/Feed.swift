/// The feeds twfeed keeps: the three timelines it polls, and the two an imported archive
/// fills (`twfeed import`). The raw value is the name used in the config, the database and
/// the command line.
package enum Feed: String, Sendable, CaseIterable, Codable, Hashable {
    case home
    case mentions
    case retweets
    /// Your own posts, from the archive X sends you.
    case posts
    /// Your likes, from the archive: the API no longer serves them.
    case likes

    /// The timelines the daemon polls, schedules, bills and tracks gaps in: everything that
    /// reads the API loops over these, never `allCases`.
    package static let polled: [Feed] = [.home, .mentions, .retweets]
    /// The feeds only an import fills: never polled, billed, gap-tracked or pruned.
    package static let archived: [Feed] = [.posts, .likes]

    package var isPolled: Bool { Feed.polled.contains(self) }
}
