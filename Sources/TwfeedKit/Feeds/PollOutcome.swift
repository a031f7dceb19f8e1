import Foundation

/// How far one poll got: what it stored and what it asked for.
package struct PollProgress: Sendable, Equatable {
    package var newTweets = 0
    package var pages = 0
    package var requests = 0
    /// The range (or walk) reached its end; false when paused by a rate limit, the page
    /// cap or an error.
    package var complete = false

    package init(newTweets: Int = 0, pages: Int = 0, requests: Int = 0, complete: Bool = false) {
        self.newTweets = newTweets
        self.pages = pages
        self.requests = requests
        self.complete = complete
    }
}

/// How one poll of a feed ended, with how far it got and when the feed is polled next
/// (interval, rate-limit reset, hold or backoff): the poller sleeps until then, and the
/// time is stored too, for `status` and for a restart.
package enum PollOutcome: Sendable, Equatable {
    /// The range (or walk) reached its end: next at the feed's interval.
    case caughtUp(PollProgress, next: Date)
    /// Stopped short without an error (the rate limit is spent, or the page cap was
    /// reached): resumes where it stopped at `until`.
    case paused(PollProgress, until: Date)
    /// Held back (the budget, a billing state, an endpoint refused): no failure, no
    /// backoff; the hold says until when.
    case held(BillingGate.Hold, PollProgress)
    /// A request failed: what was stored before it stays; next after the backoff.
    case failed(APIError, PollProgress, next: Date)

    package var progress: PollProgress {
        switch self {
        case .caughtUp(let progress, _), .paused(let progress, _), .held(_, let progress), .failed(_, let progress, _): progress
        }
    }

    package var nextPollAt: Date {
        switch self {
        case .caughtUp(_, let next), .paused(_, let next), .failed(_, _, let next): next
        case .held(let hold, _): hold.until
        }
    }

    /// The range (or walk) reached its end.
    package var complete: Bool {
        if case .caughtUp = self { true } else { false }
    }

    package var error: APIError? {
        if case .failed(let error, _, _) = self { error } else { nil }
    }

    package var hold: BillingGate.Hold? {
        if case .held(let hold, _) = self { hold } else { nil }
    }

    package var newTweets: Int { progress.newTweets }
    package var requests: Int { progress.requests }
}
