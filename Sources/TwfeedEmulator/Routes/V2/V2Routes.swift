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
        var tokenBound: UInt64?
        if let token = value("pagination_token") {
            tokenBound = PaginationToken.decode(token)
            if tokenBound == nil {
                errors.append(
                    .init(
                        parameter: "pagination_token",
                        value: token,
                        message: "The `pagination_token` query parameter value [\(token)] is not valid"
                    )
                )
            }
        }
        var excludeReplies = false
        var excludeRetweets = false
        if let text = value("exclude") {
            for item in text.split(separator: ",") {
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
            : feed.pagesByPosition ? PaginationToken.encode(UInt64(start + slots.count)) : slots.last.map(PaginationToken.encode)
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

    // MARK: POST /2/tweets

    static func post(_ context: RequestContext, state: inout EmulatorState) -> EmulatorResponse {
        guard let body = JSONBody.object(context.request.body) else {
            return ErrorBody.problem(
                400,
                title: "Invalid Request",
                detail: "The request body is not a JSON object.",
                type: "https://api.twitter.com/2/problems/invalid-request"
            )
        }
        guard let text = body["text"] as? String else {
            return ErrorBody.invalidRequest([
                .init(
                    parameter: "text",
                    value: "",
                    message: "$.text: is missing but it is required"
                )
            ])
        }
        var replyTo: UInt64?
        if let reply = body["reply"] as? [String: Any] {
            guard let target = reply["in_reply_to_tweet_id"] as? String, let id = UInt64(target) else {
                return ErrorBody.invalidRequest([
                    .init(
                        parameter: "reply.in_reply_to_tweet_id",
                        value: "\(reply["in_reply_to_tweet_id"] ?? "")",
                        message: "$.reply.in_reply_to_tweet_id: does not match the regex pattern ^[0-9]{1,19}$"
                    )
                ])
            }
            replyTo = id
        }
        if let rejection = state.store.validatePost(
            text: text,
            replyTo: replyTo,
            now: context.now,
            duplicateWindow: state.duplicateWindowSeconds,
            repliesRequireSummons: state.billing.repliesRequireSummons,
            longPosts: state.longPostsAllowed
        ) {
            switch rejection {
            case .empty:
                return ErrorBody.invalidRequest([
                    .init(
                        parameter: "text",
                        value: text,
                        message: "$.text: must not be empty"
                    )
                ])
            case .replyNotPermitted:
                return ErrorBody.problem(403, title: "Forbidden", detail: ErrorBody.replyNotPermittedDetail)
            case .tooLong:
                return ErrorBody.problem(403, title: "Forbidden", detail: "Your Tweet text is too long.")
            case .replyTargetMissing:
                return ErrorBody.problem(
                    403,
                    title: "Forbidden",
                    detail: "You attempted to reply to a Tweet that is deleted or not visible to you."
                )
            case .duplicate:
                return ErrorBody.problem(
                    403,
                    title: "Forbidden",
                    detail: "You are not allowed to create a Tweet with duplicate content."
                )
            }
        }
        let kind = PostPricing.kind(text: text, replyTo: replyTo, store: state.store)
        let tweet = state.store.post(text: text, replyTo: replyTo, now: context.now)
        state.posted.append(
            PostedStatus(
                id: String(tweet.id),
                text: text,
                inReplyToID: replyTo.map { String($0) },
                dialect: .v2,
                createdAt: tweet.createdAt
            )
        )
        var response = EmulatorResponse.json(
            201,
            .object([
                (
                    "data",
                    .object([
                        ("id", .string(String(tweet.id))), ("text", .string(tweet.rendered.escaped)),
                        ("edit_history_tweet_ids", .array([.string(String(tweet.id))])),
                    ])
                )
            ])
        )
        response.served.created = kind
        return response
    }

    // MARK: Lookups

    /// `GET /2/tweets?ids=ID,...` (1-100 ids) and `GET /2/tweets/:id`: the posts found,
    /// in the order asked, with the usual fields and expansions; a missing or deleted one
    /// is a partial `errors` entry, and when none is found the answer is a 200 with only
    /// `errors`, as on the real API.
    static func lookup(_ context: RequestContext, pathID: String?, store: TweetStore) -> EmulatorResponse {
        let query = context.request.queryItems
        var errors = unknownParameterErrors(query, allowed: pathID == nil ? fieldParameters.union(["ids"]) : fieldParameters)
        let fields = V2Fields(query: query, errors: &errors)
        let parameter = pathID == nil ? "ids" : "id"
        let texts =
            pathID.map { [$0] }
            ?? (query.first { $0.name == "ids" }?.value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) ?? [])
        var ids: [UInt64] = []
        if texts.isEmpty || texts.count > 100 {
            errors.append(
                .init(
                    parameter: "ids",
                    value: texts.joined(separator: ","),
                    message: "The `ids` query parameter value [\(texts.joined(separator: ","))] must have 1 to 100 ids"
                )
            )
        }
        for text in texts {
            if let id = UInt64(text), text.count <= 19 {
                ids.append(id)
            } else {
                errors.append(
                    .init(
                        parameter: parameter,
                        value: text,
                        message: "The `\(parameter)` query parameter value [\(text)] does not match ^[0-9]{1,19}$"
                    )
                )
            }
        }
        guard errors.isEmpty else { return ErrorBody.invalidRequest(errors) }
        var found: [StoredTweet] = []
        var missing: [EmulatorJSON] = []
        for id in ids {
            if let tweet = store.tweets[id], !tweet.deleted {
                found.append(tweet)
            } else {
                missing.append(PayloadV2.unavailableError(id, parameter: parameter, store: store))
            }
        }
        var served = ServedResources()
        let members = PayloadV2.body(
            found,
            single: pathID != nil,
            errors: missing,
            fields: fields,
            store: store,
            imageBase: context.imageBase,
            served: &served
        )
        var response = EmulatorResponse.json(200, .object(members))
        response.served = served
        return response
    }

    // MARK: GET /2/users?ids=

    /// `GET /2/users?ids=ID,...` (1-100 ids): the users found, in the order asked, with the
    /// `user.fields` asked; an unknown id is a partial `errors` entry, and when none is
    /// found the answer is a 200 with only `errors`. Each user returned is billed at the
    /// user read price (x-api.md), once per UTC day.
    static func users(_ context: RequestContext, store: TweetStore) -> EmulatorResponse {
        let query = context.request.queryItems
        var errors = unknownParameterErrors(query, allowed: fieldParameters.union(["ids"]))
        let fields = V2Fields(query: query, errors: &errors)
        let texts = query.first { $0.name == "ids" }?.value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) ?? []
        if texts.isEmpty || texts.count > 100 {
            errors.append(
                .init(
                    parameter: "ids",
                    value: texts.joined(separator: ","),
                    message: "The `ids` query parameter value [\(texts.joined(separator: ","))] must have 1 to 100 ids"
                )
            )
        }
        var ids: [UInt64] = []
        for text in texts {
            if let id = UInt64(text), text.count <= 19 {
                ids.append(id)
            } else {
                errors.append(
                    .init(parameter: "ids", value: text, message: "The `ids` query parameter value [\(text)] does not match ^[0-9]{1,19}$")
                )
            }
        }
        guard errors.isEmpty else { return ErrorBody.invalidRequest(errors) }
        var served = ServedResources()
        var found: [EmulatedUser] = []
        var seen: Set<UInt64> = []
        var missing: [EmulatorJSON] = []
        for id in ids where seen.insert(id).inserted {
            if let user = store.user(id) {
                found.append(user)
                served.addUser(id)
            } else {
                missing.append(
                    .object([
                        ("value", .string(String(id))), ("detail", .string("Could not find user with ids: [\(id)].")),
                        ("title", .string("Not Found Error")), ("resource_type", .string("user")), ("parameter", .string("ids")),
                        ("resource_id", .string(String(id))), ("type", .string("https://api.twitter.com/2/problems/resource-not-found")),
                    ])
                )
            }
        }
        var members: [(String, EmulatorJSON)] = []
        if !found.isEmpty {
            members.append(("data", .array(found.map { PayloadV2.user($0, fields: fields.userFields, imageBase: context.imageBase) })))
        }
        if !missing.isEmpty { members.append(("errors", .array(missing))) }
        var response = EmulatorResponse.json(200, .object(members))
        response.served = served
        return response
    }
}
