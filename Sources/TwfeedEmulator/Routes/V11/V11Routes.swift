import Foundation

/// The legacy Twitter API v1.1 endpoints twfeed can use.
enum V11Routes {
    /// Up to `count` statuses (default 20, at most 200; 100 for retweets_of_me), newer
    /// than `since_id` (exclusive) and not newer than `max_id` (inclusive). As on the real
    /// API, `count` is applied first and deleted tweets removed after, so pages run short.
    static func timeline(_ feed: EmulatorFeed, context: RequestContext, store: TweetStore) -> HTTPResponse {
        let limit = feed == .retweets ? 100 : 200
        let count = min(limit, max(1, context.parameter("count").flatMap { Int($0) } ?? 20))
        let sinceID = context.parameter("since_id").flatMap { UInt64($0) }
        let maxID = context.parameter("max_id").flatMap { UInt64($0) }
        let excludeReplies = ["true", "1", "t"].contains(context.parameter("exclude_replies")?.lowercased() ?? "")
        let includeRetweets = !["false", "0", "f"].contains(context.parameter("include_rts")?.lowercased() ?? "")
        let slots = store.reachableSlots(feed, .v1_1).lazy.filter { id in
            if let sinceID, id <= sinceID { return false }
            if let maxID, id > maxID { return false }
            return true
        }.prefix(count)
        let options = PayloadV11.Options(context.parameters)
        let statuses = slots.compactMap { store.tweets[$0] }
            .filter { !$0.deleted && !(excludeReplies && $0.isReply) && !(!includeRetweets && $0.isRetweet) }
            .map { PayloadV11.status($0, store: store, options: options, imageBase: context.imageBase) }
        return .json(200, .array(Array(statuses)))
    }

    static func verifyCredentials(_ context: RequestContext, store: TweetStore) -> HTTPResponse {
        .json(200, PayloadV11.user(store.account, imageBase: context.imageBase))
    }

    /// `POST statuses/update.json` with `status` (and `in_reply_to_status_id`) in the form
    /// body (or the query, which v1.1 also accepted).
    static func update(_ context: RequestContext, state: inout EmulatorState) -> HTTPResponse {
        guard let text = context.parameter("status") else {
            return ErrorBody.v11(403, code: 170, message: "Missing required parameter: status.")
        }
        var replyTo: UInt64?
        if let target = context.parameter("in_reply_to_status_id"), !target.isEmpty {
            guard let id = UInt64(target) else {
                return ErrorBody.v11(403, code: 385,
                    message: "You attempted to reply to a Tweet that is deleted or not visible to you.")
            }
            replyTo = id
        }
        if let rejection = state.store.validatePost(text: text, replyTo: replyTo) {
            switch rejection {
            case .empty: return ErrorBody.v11(403, code: 170, message: "Missing required parameter: status.")
            case .tooLong: return ErrorBody.v11(403, code: 186, message: "Status is over 280 characters.")
            case .replyTargetMissing:
                return ErrorBody.v11(403, code: 385,
                    message: "You attempted to reply to a Tweet that is deleted or not visible to you.")
            case .duplicate: return ErrorBody.v11(403, code: 187, message: "Status is a duplicate.")
            }
        }
        let tweet = state.store.post(text: text, replyTo: replyTo, now: context.now)
        state.posted.append(PostedStatus(id: String(tweet.id), text: text, inReplyToID: replyTo.map { String($0) },
                                         dialect: .v1_1, createdAt: tweet.createdAt))
        let options = PayloadV11.Options(context.parameters)
        return .json(200, PayloadV11.status(tweet, store: state.store, options: options, imageBase: context.imageBase))
    }
}
