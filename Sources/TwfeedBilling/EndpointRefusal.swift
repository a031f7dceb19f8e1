import Foundation

/// An endpoint the API refuses to this account whatever it pays (`NotPermittedReason`),
/// kept per source: a feed, or the outbox. Stored, so that `twfeed status` can say which
/// feed is not permitted and why, and so a restart does not ask again at once.
package struct EndpointRefusal: Sendable, Equatable, Hashable {
    package var source: BillingSource
    package var reason: NotPermittedReason
    /// The API's own words, one line.
    package var detail: String
    /// When the API first refused it.
    package var since: Date
    /// When to ask again: a day later, or at once after a reload (the user may have
    /// fixed the console in between).
    package var recheckAt: Date

    /// A refusal is asked again once a day: nothing but a person changes it, and asking
    /// is free (a refused request costs nothing).
    package static let recheckInterval: TimeInterval = 86_400

    package init(source: BillingSource, reason: NotPermittedReason, detail: String, since: Date, recheckAt: Date) {
        self.source = source
        self.reason = reason
        self.detail = detail
        self.since = since
        self.recheckAt = recheckAt
    }
}
