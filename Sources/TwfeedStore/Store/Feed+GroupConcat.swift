import TwfeedCore

extension Feed {
    /// The feeds of a comma-separated list as the store's `group_concat` spells it, in
    /// the order of `allCases` whatever order SQLite gave, each once.
    static func list(_ commaSeparated: String?) -> [Feed] {
        guard let commaSeparated else { return [] }
        return allCases.filter { feed in commaSeparated.split(separator: ",").contains { $0 == feed.rawValue } }
    }
}
