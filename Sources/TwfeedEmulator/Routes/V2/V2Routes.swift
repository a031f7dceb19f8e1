import Foundation
import TwfeedBase

/// The X API v2 endpoints twfeed uses.
enum V2Routes {
    static let fieldParameters: Set<String> = [
        "expansions", "tweet.fields", "user.fields", "media.fields", "poll.fields", "place.fields",
    ]

    static func unknownParameterErrors(_ query: [(name: String, value: String)], allowed: Set<String>) -> [ErrorBody.ParameterError] {
        query.filter { !allowed.contains($0.name) }.map { item in
            .init(
                parameter: item.name,
                value: item.value,
                message: "The query parameter [\(item.name)] is not one of [\(allowed.sorted().joined(separator: ","))]"
            )
        }
    }

    // MARK: GET /2/users/me

    static func me(_ context: RequestContext, store: TweetStore) -> EmulatorResponse {
        let query = context.request.queryItems
        var errors = unknownParameterErrors(query, allowed: fieldParameters)
        let fields = V2Fields(query: query, errors: &errors)
        guard errors.isEmpty else { return ErrorBody.invalidRequest(errors) }
        var response = EmulatorResponse.json(
            200,
            .object([
                ("data", PayloadV2.user(store.account, fields: fields.userFields, imageBase: context.imageBase))
            ])
        )
        response.served.addUser(TweetStore.accountID)
        return response
    }

    // MARK: Timelines

    /// One page of home, mentions or reposts_of_me, newest first. The page is cut from the
    /// feed's reachable slots first; deleted and `exclude`d tweets are removed afterwards,
    /// so a page can be short (even empty) and still have a `next_token`.
    static func timeline(_ feed: V2TimelineSource, userID: String?, context: RequestContext, store: TweetStore) -> EmulatorResponse {
        let query = context.request.queryItems
        var errors = unknownParameterErrors(query, allowed: feed.allowedParameters)
        let fields = V2Fields(query: query, errors: &errors)
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }

        var maxResults = 10
        let range = feed.maxResultsRange
        if let text = value("max_results") {
            if let number = Int(text), range.contains(number) {
                maxResults = number
            } else {
                errors.append(
                    .init(
                        parameter: "max_results",
                        value: text,
                        message: "The `max_results` query parameter value [\(text)] is not between \(range.lowerBound) and \(range.upperBound)"
                    )
                )
            }
        }
        func id(_ name: String) -> UInt64? {
            guard let text = value(name) else { return nil }
            if let number = UInt64(text), text.count <= 19 { return number }
            errors.append(
                .init(
                    parameter: name,
                    value: text,
                    message: "The `\(name)` query parameter value [\(text)] does not match ^[0-9]{1,19}$"
                )
            )
            return nil
        }
        func time(_ name: String) -> Date? {
            guard let text = value(name) else { return nil }
            if let date = Timestamp.parseISO8601(text) { return date }
            errors.append(
                .init(
                    parameter: name,
                    value: text,
                    message: "The `\(name)` query parameter value [\(text)] is not a valid RFC3339 date-time"
                )
            )
            return nil
        }
        let sinceID = id("since_id")
        let untilID = id("until_id")
        let startTime = time("start_time")
        let endTime = time("end_time")
        var token: PaginationToken.Contents?
        if let text = value("pagination_token") {
            token = PaginationToken.decode(text)
            if token == nil {
                errors.append(
                    .init(
                        parameter: "pagination_token",
                        value: text,
                        message: "The `pagination_token` query parameter value [\(text)] is not valid"
                    )
                )
            }
        }
        var excludeReplies = false
        var excludeRetweets = false
        var excluded = Set<String>()
        if let text = value("exclude") {
            for item in text.split(separator: ",") {
                excluded.insert(String(item))
                switch item {
                case "replies": excludeReplies = true
                case "retweets": excludeRetweets = true
                default:
                    errors.append(
                        .init(
                            parameter: "exclude",
                            value: String(item),
                            message: "The `exclude` query parameter value [\(item)] is not one of [replies,retweets]"
                        )
                    )
                }
            }
        }
        if let userID, UInt64(userID) == nil {
            errors.append(
                .init(
                    parameter: "id",
                    value: userID,
                    message: "The `id` query parameter value [\(userID)] does not match ^[0-9]{1,19}$"
                )
            )
        }
        // A token belongs to the query that produced it (`PaginationToken`).
        let scope = PaginationToken.scope(
            [
                "\(feed)", userID ?? "", sinceID.map { String($0) } ?? "", untilID.map { String($0) } ?? "",
                value("start_time") ?? "", value("end_time") ?? "", excluded.sorted().joined(separator: ","),
            ]
        )
        if let token, token.scope != scope, let text = value("pagination_token") {
            errors.append(
                .init(
                    parameter: "pagination_token",
                    value: text,
                    message: "The `pagination_token` query parameter value [\(text)] does not belong to this query: "
                        + "it was given with other since_id, until_id, start_time, end_time or exclude"
                )
            )
        }
        let tokenBound = token?.bound
        guard errors.isEmpty else { return ErrorBody.invalidRequest(errors) }
        if let userID, userID != String(TweetStore.accountID) {
            return otherUser(userID, feed: feed, store: store)
        }

        let all = feed.slots(store)
        // By position (reposts_of_me) the token is the offset of the next page's first slot.
        let start = feed.pagesByPosition ? Int(clamping: min(tokenBound ?? 0, UInt64(all.count))) : 0
        let candidates = all[start...].lazy.filter { id in
            if let sinceID, id <= sinceID { return false }
            if let untilID, id >= untilID { return false }
            if !feed.pagesByPosition, let tokenBound, id >= tokenBound { return false }
            if startTime != nil || endTime != nil, let tweet = store.tweets[id] {
                if let startTime, tweet.createdAt < startTime { return false }
                if let endTime, tweet.createdAt > endTime { return false }
            }
            return true
        }
        let slots = Array(candidates.prefix(maxResults))
        let hasMore = candidates.dropFirst(maxResults).first != nil
        let tweets = slots.compactMap { store.tweets[$0] }.filter { tweet in
            !tweet.deleted && !(excludeReplies && tweet.isReply) && !(excludeRetweets && tweet.isRetweet)
        }
        let next =
            !hasMore
            ? nil
            : feed.pagesByPosition
                ? PaginationToken.encode(UInt64(start + slots.count), scope: scope)
                : slots.last.map { PaginationToken.encode($0, scope: scope) }
        // Only the account reaches this point: another user's id was answered above.
        var served = ServedResources()
        served.ownedTimeline = feed == .mentions || feed == .ownPosts
        let page = PayloadV2.page(
            tweets,
            nextToken: next,
            fields: fields,
            store: store,
            imageBase: context.imageBase,
            served: &served
        )
        var response = EmulatorResponse.json(200, page)
        response.served = served
        return response
    }

    /// Another user's timeline. Home and mentions exist only for the authenticated user
    /// (403, as on the real API). Others' own posts are public on the real API, but the
    /// emulator keeps only the account's: a known user gets a 403 saying so, an unknown
    /// one the real API's 200 with a not-found error and no `data`.
    private static func otherUser(_ userID: String, feed: V2TimelineSource, store: TweetStore) -> EmulatorResponse {
        guard feed == .ownPosts else {
            return ErrorBody.problem(
                403,
                title: "Forbidden",
                detail: "You can only request timelines of the authenticated user."
            )
        }
        if let id = UInt64(userID), store.user(id) != nil {
            return ErrorBody.problem(
                403,
                title: "Forbidden",
                detail: "The emulator serves the authenticated user's own posts only."
            )
        }
        return .json(
            200,
            .object([
                (
                    "errors",
                    .array([
                        .object([
                            ("value", .string(userID)), ("detail", .string("Could not find user with id: [\(userID)].")),
                            ("title", .string("Not Found Error")), ("resource_type", .string("user")), ("parameter", .string("id")),
                            ("resource_id", .string(userID)), ("type", .string("https://api.twitter.com/2/problems/resource-not-found")),
                        ])
                    ])
                )
            ])
        )
    }
}
