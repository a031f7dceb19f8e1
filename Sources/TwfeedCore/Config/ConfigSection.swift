/// The top-level sections of `config.json`, each with how two configs compare in it:
/// what a reload names as `changed=`. Listed once, so that a section cannot be left out
/// of the comparison (as `http` was); a test holds the cases to `TwfeedConfig`'s own
/// stored properties.
package enum ConfigSection: String, CaseIterable, Sendable {
    // `changed=` lists them in this order, as it did before `http` was compared:
    // `credentials` (which the supervisor also compares by the file's content) last.
    case api, feeds, storage, images, outbox, log, http, graph, credentials

    /// Whether this section differs between two configs. For `credentials` that is the
    /// file's path only: what the file holds is not part of the config.
    package func differs(_ old: TwfeedConfig, _ new: TwfeedConfig) -> Bool {
        switch self {
        case .api: old.api != new.api
        case .feeds: old.feeds != new.feeds
        case .storage: old.storage != new.storage
        case .images: old.images != new.images
        case .outbox: old.outbox != new.outbox
        case .log: old.log != new.log
        case .http: old.http != new.http
        case .graph: old.graph != new.graph
        case .credentials: old.credentials != new.credentials
        }
    }

    /// The sections that differ, in the order of the cases.
    package static func changed(from old: TwfeedConfig, to new: TwfeedConfig) -> [ConfigSection] {
        allCases.filter { $0.differs(old, new) }
    }
}
