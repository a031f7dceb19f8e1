import Foundation
import TwfeedArchive
import TwfeedCore
import TwfeedStore

/// What `twfeed import` did (or, with `--dry-run`, would do): its `--json` object and its
/// lines (docs/INTERFACE.md, "Your history: the X archive").
package struct ImportSummary: Sendable, Equatable {
    package var account: ArchiveAccount
    package var posts = ArchiveCounts()
    package var likes = ArchiveCounts()
    /// Photos put in the cache from the archive (none twice: one cached already is not counted).
    package var photos = 0
    /// The data files twfeed does not read, as the archive names them.
    package var ignored: [String] = []
    package var seconds: Double = 0
    package var dryRun = false

    package init(account: ArchiveAccount) {
        self.account = account
    }

    /// `{"account", "posts": {"new", "updated", "unchanged"}, "likes": {...}, "photos",
    /// "ignored": [FILE...], "seconds"}`: keys sorted, as all of twfeed's JSON.
    package var json: String {
        func counts(_ counts: ArchiveCounts) -> JSONValue {
            .object([
                "new": .number(String(counts.new)), "updated": .number(String(counts.updated)),
                "unchanged": .number(String(counts.unchanged)),
            ])
        }
        return JSONValue.object([
            "account": .string(account.username),
            "posts": counts(posts),
            "likes": counts(likes),
            "photos": .number(String(photos)),
            "ignored": .array(ignored.map(JSONValue.string)),
            "seconds": .number(String(format: "%.3f", seconds)),
        ]).serialized
    }

    /// The human lines.
    package var lines: [String] {
        func counts(_ counts: ArchiveCounts) -> String {
            "\(counts.new) new, \(counts.updated) updated, \(counts.unchanged) unchanged"
        }
        let verb = dryRun ? "would import (dry run, nothing stored)" : "imported"
        return [
            "\(verb) the archive of @\(account.username) in \(String(format: "%.1f", seconds)) s",
            "posts: \(counts(posts))",
            "likes: \(counts(likes))",
            "photos: \(photos)",
        ] + (ignored.isEmpty ? [] : ["ignored: \(ignored.joined(separator: ", "))"])
    }
}

/// Where an import stands, for the progress bar on a terminal.
package struct ImportProgress: Sendable, Equatable {
    package enum Phase: String, Sendable {
        case checking, posts, likes, photos
    }

    package var phase: Phase
    /// Items of the phase stored so far.
    package var done: Int
    /// How many the phase has, when known (photos).
    package var total: Int?

    package init(phase: Phase, done: Int, total: Int? = nil) {
        self.phase = phase
        self.done = done
        self.total = total
    }
}
