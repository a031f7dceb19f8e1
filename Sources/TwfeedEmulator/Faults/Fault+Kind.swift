import Foundation

extension Fault {
    /// Every kind of fault the emulator injects, without its parameters: what the fault
    /// matrix iterates, so a fault added to `Fault` is covered without editing the test.
    /// The two switches below are exhaustive, so a new `Fault` case does not compile
    /// until it names its kind, and a new kind not until it gives its examples.
    public enum Kind: String, Sendable, CaseIterable {
        case status, slow, resetMidBody, truncatedJSON, malformedJSON, rateLimited, authFailure, acceptThenReset
        case rateLimitedWithoutHeaders, rateLimitedWithPastReset, badRateLimitHeader, rateLimitedWithBadHeader
        case creditsDepleted, spendCapReached, usageCapExceeded, notEnrolled

        /// The faults a test injects for this kind: the parameters that matter (a 5xx of
        /// each flavour, an answer slower than `timeoutSeconds` 1, the absurd header values).
        public var examples: [Fault] {
            switch self {
            case .status: [.status(500), .status(503)]
            case .slow: [.slow(seconds: 1.3)]
            case .resetMidBody: [.resetMidBody]
            case .truncatedJSON: [.truncatedJSON]
            case .malformedJSON: [.malformedJSON]
            case .rateLimited: [.rateLimited]
            case .authFailure: [.authFailure]
            case .acceptThenReset: [.acceptThenReset]
            case .rateLimitedWithoutHeaders: [.rateLimitedWithoutHeaders]
            case .rateLimitedWithPastReset: [.rateLimitedWithPastReset(secondsAgo: 3600)]
            case .badRateLimitHeader:
                [
                    .badRateLimitHeader(value: "inf", header: .all, rateLimited: false),
                    .badRateLimitHeader(value: "-5", header: .reset, rateLimited: false),
                ]
            case .rateLimitedWithBadHeader:
                [
                    .badRateLimitHeader(value: "inf", header: .reset, rateLimited: true),
                    .badRateLimitHeader(value: "99999999999999999999", header: .all, rateLimited: true),
                ]
            // Any 402 is no credits: the documented problem, v1.1's errors list, and nothing.
            case .creditsDepleted: [.creditsDepleted(.problem), .creditsDepleted(.errors), .creditsDepleted(.empty)]
            case .spendCapReached: [.spendCapReached()]
            case .usageCapExceeded: [.usageCapExceeded()]
            case .notEnrolled: [.notEnrolled(.clientNotEnrolled)]
            }
        }

        /// Whether this kind is one of the pay-per-use API's refusals for money or access
        /// (x-api.md's refusal table), which a client holds back for, rather than retries.
        public var isBillingRefusal: Bool {
            switch self {
            case .creditsDepleted, .spendCapReached, .usageCapExceeded, .notEnrolled: true
            case .status, .slow, .resetMidBody, .truncatedJSON, .malformedJSON, .rateLimited, .authFailure,
                .acceptThenReset, .rateLimitedWithoutHeaders, .rateLimitedWithPastReset, .badRateLimitHeader,
                .rateLimitedWithBadHeader:
                false
            }
        }
    }

    /// This fault's kind.
    public var kind: Kind {
        switch self {
        case .status: .status
        case .slow: .slow
        case .resetMidBody: .resetMidBody
        case .truncatedJSON: .truncatedJSON
        case .malformedJSON: .malformedJSON
        case .rateLimited: .rateLimited
        case .authFailure: .authFailure
        case .acceptThenReset: .acceptThenReset
        case .rateLimitedWithoutHeaders: .rateLimitedWithoutHeaders
        case .rateLimitedWithPastReset: .rateLimitedWithPastReset
        case .badRateLimitHeader(_, _, let rateLimited): rateLimited ? .rateLimitedWithBadHeader : .badRateLimitHeader
        case .creditsDepleted: .creditsDepleted
        case .spendCapReached: .spendCapReached
        case .usageCapExceeded: .usageCapExceeded
        case .notEnrolled: .notEnrolled
        }
    }

    /// One example or more of every kind.
    public static var examples: [Fault] { Kind.allCases.flatMap(\.examples) }
}
