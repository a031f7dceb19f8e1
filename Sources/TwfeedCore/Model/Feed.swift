/// The three timelines twfeed keeps. The raw value is the name used in the config,
/// the database and the command line.
package enum Feed: String, Sendable, CaseIterable, Codable, Hashable {
    case home
    case mentions
    case retweets
}
