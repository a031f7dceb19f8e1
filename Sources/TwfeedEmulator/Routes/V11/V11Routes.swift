import Foundation

/// The legacy Twitter API v1.1 endpoints twfeed can use.
enum V11Routes {
    /// Up to `count` statuses (default 20, at most 200; 100 for retweets_of_me), newer
    /// than `since_id` (exclusive) and not newer than `max_id` (inclusive). As on the real
    /// API, `count` is applied first and deleted tweets removed after, so pages run short.
    static func timeline(_ feed: EmulatorFeed, context: RequestContext, store: TweetStore) -> EmulatorResponse {
        page(
            store.reachableSlots(feed, .v1_1),
            limit: feed == .retweets ? 100 : 200,
            owned: feed == .mentions,
            context: context,
            store: store
        )
    }

    /// One page cut from `reachable` (newest first) by `count`, `since_id` and `max_id`.
    /// `owned`: the account's own mentions or posts (the owned read price may apply).
    private static func page(
        _ reachable: [UInt64],
        limit: Int,
        owned: Bool,
        context: RequestContext,
        store: TweetStore
    ) -> EmulatorResponse {
        let count = min(limit, max(1, context.parameter("count").flatMap { Int($0) } ?? 20))
        let sinceID = context.parameter("since_id").flatMap { UInt64($0) }
        let maxID = context.parameter("max_id").flatMap { UInt64($0) }
        let excludeReplies = ["true", "1", "t"].contains(context.parameter("exclude_replies")?.lowercased() ?? "")
        let includeRetweets = !["false", "0", "f"].contains(context.parameter("include_rts")?.lowercased() ?? "")
        let slots = reachable.lazy.filter { id in
            if let sinceID, id <= sinceID { return false }
            if let maxID, id > maxID { return false }
            return true
        }.prefix(count)
        let options = PayloadV11.Options(context.parameters)
        var served = ServedResources()
        served.ownedTimeline = owned
        let statuses = slots.compactMap { store.tweets[$0] }
            .filter { !$0.deleted && !(excludeReplies && $0.isReply) && !(!includeRetweets && $0.isRetweet) }
            .map { tweet in
                served.addPost(tweet.id)
                return PayloadV11.status(tweet, store: store, options: options, imageBase: context.imageBase, served: &served)
            }
        var response = EmulatorResponse.json(200, .array(Array(statuses)))
        response.served = served
        return response
    }

    /// `GET statuses/user_timeline.json`: the account's own tweets (statuses posted through
    /// the emulator included), newest first, `count` ≤ 200 (default 20), `since_id`
    /// exclusive, `max_id` inclusive, reaching the latest 3,200. Without `user_id` and
    /// `screen_name` it is the signed-in user's. Another user's timeline answers as v1.1
    /// does for a protected account (401 "Not authorized."), an unknown one code 34: the
    /// emulator keeps only the account's own tweets.
    static func userTimeline(_ context: RequestContext, store: TweetStore) -> EmulatorResponse {
        let userID = context.parameter("user_id")
        let screenName = context.parameter("screen_name")
        let isAccount =
            (userID.map { $0 == String(TweetStore.accountID) } ?? true)
            && (screenName.map { $0.lowercased() == TweetStore.accountUsername } ?? true)
        guard isAccount else {
            let known = userID.flatMap(UInt64.init).flatMap(store.user) ?? screenName.flatMap(store.user(named:))
            guard known != nil else { return ErrorBody.v11(404, code: 34, message: "Sorry, that page does not exist.") }
            return .json(401, .object([("request", .string(context.request.path)), ("error", .string("Not authorized."))]))
        }
        return page(store.reachableOwnTweets(), limit: 200, owned: true, context: context, store: store)
    }

    static func verifyCredentials(_ context: RequestContext, store: TweetStore) -> EmulatorResponse {
        var response = EmulatorResponse.json(200, PayloadV11.user(store.account, imageBase: context.imageBase))
        response.served.addUser(TweetStore.accountID)
        return response
    }

    /// `POST statuses/update.json` with `status` (and `in_reply_to_status_id`) in the form
    /// body (or the query, which v1.1 also accepted). `media_ids` is refused (400 code 324).
    static func update(_ context: RequestContext, state: inout EmulatorState) -> EmulatorResponse {
        guard let text = context.parameter("status") else {
            return ErrorBody.v11(403, code: 170, message: "Missing required parameter: status.")
        }
        // v1.1's media upload is retired, so no media id can be v1.1's to attach.
        if let mediaIDs = context.parameter("media_ids"), !mediaIDs.isEmpty {
            return ErrorBody.v11(400, code: 324, message: "The validation of media ids failed.")
        }
        var replyTo: UInt64?
        if let target = context.parameter("in_reply_to_status_id"), !target.isEmpty {
            guard let id = UInt64(target) else {
                return ErrorBody.v11(
                    403,
                    code: 385,
                    message: "You attempted to reply to a Tweet that is deleted or not visible to you."
                )
            }
            replyTo = id
        }
        if let rejection = state.rejection(ofPost: text, replyTo: replyTo, now: context.now) {
            switch rejection {
            case .replyNotPermitted: return ErrorBody.v11(403, code: 433, message: ErrorBody.replyNotPermittedDetail)
            case .empty: return ErrorBody.v11(403, code: 170, message: "Missing required parameter: status.")
            case .tooLong: return ErrorBody.v11(403, code: 186, message: "Status is over 280 characters.")
            case .replyTargetMissing:
                return ErrorBody.v11(
                    403,
                    code: 385,
                    message: "You attempted to reply to a Tweet that is deleted or not visible to you."
                )
            case .duplicate: return ErrorBody.v11(403, code: 187, message: "Status is a duplicate.")
            }
        }
        let (tweet, kind) = state.accept(post: text, replyTo: replyTo, dialect: .v1_1, now: context.now)
        let options = PayloadV11.Options(context.parameters)
        // The created status comes back as a status object, but a post is billed as one
        // create, not as the reads of what its answer holds.
        var ignored = ServedResources()
        var response = EmulatorResponse.json(
            200,
            PayloadV11.status(
                tweet,
                store: state.store,
                options: options,
                imageBase: context.imageBase,
                served: &ignored
            )
        )
        response.served.created = kind
        return response
    }

    // MARK: Lookups

    /// `GET statuses/lookup.json?id=ID,...` (up to 100): the statuses found, in the order
    /// asked; a missing or deleted one is left out, or with `map=true` listed as null
    /// under `{"id": {...}}`.
    static func lookup(_ context: RequestContext, store: TweetStore) -> EmulatorResponse {
        let texts = context.parameter("id")?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        let ids = texts.compactMap { UInt64($0) }
        guard !ids.isEmpty, ids.count == texts.count, ids.count <= 100 else {
            return ErrorBody.v11(400, code: 44, message: "id parameter is invalid.")
        }
        let options = PayloadV11.Options(context.parameters)
        let map = ["true", "1", "t"].contains(context.parameter("map")?.lowercased() ?? "")
        var served = ServedResources()
        var found: [(UInt64, EmulatorJSON?)] = []
        for id in ids {
            guard let tweet = store.tweets[id], !tweet.deleted else {
                found.append((id, nil))
                continue
            }
            served.addPost(id)
            found.append(
                (
                    id,
                    PayloadV11.status(tweet, store: store, options: options, imageBase: context.imageBase, served: &served)
                )
            )
        }
        var response: EmulatorResponse =
            if map {
                .json(200, .object([("id", .object(found.map { (String($0.0), $0.1 ?? .null) }))]))
            } else {
                .json(200, .array(found.compactMap(\.1)))
            }
        response.served = served
        return response
    }

    /// `GET statuses/show.json?id=ID`: one status, or 404 code 144; a protected author's
    /// 403 code 179, a suspended one's 403 code 63 (`TweetUnavailability`).
    static func show(_ context: RequestContext, store: TweetStore) -> EmulatorResponse {
        let id = context.parameter("id").flatMap({ UInt64($0) })
        guard let id, let tweet = store.tweets[id], !tweet.deleted else {
            switch id.flatMap({ store.tweets[$0]?.unavailability }) {
            case .protected?: return ErrorBody.v11(403, code: 179, message: "Sorry, you are not authorized to see this status.")
            case .suspended?: return ErrorBody.v11(403, code: 63, message: "User has been suspended.")
            case .deleted?, nil: return ErrorBody.v11(404, code: 144, message: "No status found with that ID.")
            }
        }
        var served = ServedResources()
        served.addPost(id)
        let options = PayloadV11.Options(context.parameters)
        var response = EmulatorResponse.json(
            200,
            PayloadV11.status(tweet, store: store, options: options, imageBase: context.imageBase, served: &served)
        )
        response.served = served
        return response
    }
}
