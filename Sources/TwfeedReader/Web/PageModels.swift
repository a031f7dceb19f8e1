import Foundation
import TwfeedBase
import TwfeedStore

/// The header every signed-in page shares: the feeds and the pages that post, search,
/// who is signed in, the daemon's health, the month's spend, and the form token the
/// page's forms carry.
struct HeaderModel {
    struct NavLink {
        var href: String
        var label: String
        var current: Bool
    }
    struct Poll {
        var feed: String
        var tweets: Int
        var lastPoll: TimeModel?
        var error: String?
    }

    var nav: [NavLink]
    var query: String = ""
    /// `@username` of the account the daemon reads, or nil when it is signed out.
    var account: String?
    /// Said plainly when the account is signed out (no access token).
    var signedOutText: String?
    /// Under `http.auth: "none"`: that anyone who reaches the reader may use it.
    var accessNote: String?
    /// Whether the visitor holds a session it can end ("Sign out").
    var canSignOut: Bool
    var csrf: String?
    var healthName: String
    var healthText: String
    var healthDetail: String
    /// What the API has cost: today, the cycle (and its budget), and a billing state
    /// other than `ok`; nil when the ledger cannot be read.
    var spendText: String? = nil
    var polls: [Poll]
}

/// A page of tweets: a feed or the search's hits.
struct PageModel {
    var title: String
    var heading: String
    var atomHref: String?
    var header: HeaderModel
    var message: String?
    var tweets: [RenderedTweet]
    var olderHref: String?
    /// The gaps below the page's last tweet, on a feed's last page.
    var trailingGaps: [GapMarker] = []
}

/// A time as the pages show it: relative, with the exact time on hover.
struct TimeModel {
    var iso: String
    var exact: String
    var ago: String

    init(_ date: Date, now: Date) {
        iso = Timestamp.iso8601(date)
        exact = Self.exact(date)
        ago = Self.ago(date, now: now)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func parts(_ date: Date) -> tm {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        return parts
    }

    /// `2026-11-21 10:00:00 UTC`.
    static func exact(_ date: Date) -> String {
        let p = parts(date)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(p.tm_year + 1900)-\(two(p.tm_mon + 1))-\(two(p.tm_mday)) \(two(p.tm_hour)):\(two(p.tm_min)):\(two(p.tm_sec)) UTC"
    }

    /// `now`, `42s`, `5m`, `3h`, then `Nov 21`, and `Nov 21, 2025` for another year.
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date).rounded(.down))
        if seconds < 5 { return "now" }
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\(seconds / 60)m" }
        if seconds < 86_400 { return "\(seconds / 3600)h" }
        let p = parts(date)
        let day = "\(months[Int(p.tm_mon)]) \(p.tm_mday)"
        return p.tm_year == parts(now).tm_year ? day : "\(day), \(p.tm_year + 1900)"
    }
}
