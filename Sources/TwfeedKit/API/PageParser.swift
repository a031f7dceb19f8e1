import TwfeedCore

/// The dialects' page parsers, reachable from the page fuzzers (Fuzz/FuzzV2Page,
/// Fuzz/FuzzV11Page) without a client: going through one signs every request, which
/// costs ten times the parse.
package enum PageParser {
    package static func page(_ dialect: TwfeedConfig.Dialect, _ body: JSONValue, rateLimit: RateLimit?) throws -> TimelinePage {
        switch dialect {
        case .v2: try V2Client.page(body, rateLimit: rateLimit)
        case .v1_1: try V11Client.page(body, rateLimit: rateLimit)
        }
    }
}
