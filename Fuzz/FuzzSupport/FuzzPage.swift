import Foundation
import TwfeedKit
import TwfeedCore

/// Realistic rate-limit headers, so the page path is what the daemon sees on a good day.
let goodRateLimit = RateLimit(headers: [
    "x-rate-limit-limit": "180", "x-rate-limit-remaining": "179", "x-rate-limit-reset": "1893456000",
])

/// Feeds one body to a dialect's answer handling as the client does after a request:
/// as a timeline page (the JSON reader, then the dialect's page parser) and as the body
/// of a refused request (the error reader). Every field of the page is read, so nothing
/// the parser builds goes unused.
public func fuzzPage(_ dialect: TwfeedConfig.Dialect, _ body: [UInt8]) {
    if let json = try? JSONValue.parse(body) {
        if let page = try? PageParser.page(dialect, json, rateLimit: goodRateLimit) {
            var total = page.tweets.count + page.referencedTweets.count + page.authors.count
            for tweet in page.tweets + page.referencedTweets {
                total &+= tweet.text.utf8.count &+ tweet.rawJSON.utf8.count &+ Int(tweet.id.rawValue & 1)
                total &+= tweet.createdAt.timeIntervalSince1970 > 0 ? 1 : 0
            }
            for author in page.authors { total &+= author.username.utf8.count }
            if let token = page.nextPageToken { total &+= token.utf8.count }
            blackHole(total)
        }
    }
    let refused = APIError.from(APIResponse(status: 429, headers: [:], body: body))
    blackHole(refused.description.utf8.count &+ (refused.isDuplicateStatus ? 1 : 0))
}

@inline(never)
public func blackHole(_ value: Int) {
    _ = value
}
