import Foundation
import TwfeedBase

/// `/_emulator/reply-chain`, `/_emulator/delete`, `/_emulator/tweets/:id` and
/// `/_emulator/lookups-leave-out`: what a tweet points at, for tests that run the daemon
/// as a subprocess.
extension ControlRoutes {
    /// `POST /_emulator/reply-chain {"feed":"home|mentions","depth":N}` (1-50).
    static func replyChain(_ request: EmulatorRequest, core: EmulatorCore) -> EmulatorResponse {
        let usage = "expected {\"feed\":\"home|mentions\",\"depth\":1-50}"
        guard let body = JSONBody.object(request.body), let name = body["feed"] as? String,
            let feed = EmulatorFeed(rawValue: name), feed != .retweets
        else { return error(400, usage) }
        let depth = (body["depth"] as? NSNumber)?.intValue ?? 1
        guard (1...50).contains(depth) else { return error(400, usage) }
        guard let chain = core.addReplyChain(to: feed, depth: depth) else { return error(400, usage) }
        return .json(200, .object([("id", .string(chain.id)), ("ancestors", .array(chain.ancestors.map(EmulatorJSON.string)))]))
    }

    /// `POST /_emulator/delete {"id":"...","reason":"deleted|protected|suspended"}`.
    static func delete(_ request: EmulatorRequest, core: EmulatorCore) -> EmulatorResponse {
        let reasons = TweetUnavailability.allCases.map(\.rawValue).joined(separator: "|")
        let usage = "expected {\"id\":\"<tweet id>\",\"reason\":\"\(reasons)\"}"
        guard let body = JSONBody.object(request.body), let text = body["id"] as? String, let id = UInt64(text) else {
            return error(400, usage)
        }
        var reason = TweetUnavailability.deleted
        if let name = body["reason"] {
            guard let value = (name as? String).flatMap(TweetUnavailability.init(rawValue:)) else { return error(400, usage) }
            reason = value
        }
        guard core.state.withLock({ $0.store.makeUnavailable(id, reason: reason) }) else { return error(404, "no tweet \(text)") }
        return .json(200, .object([("ok", .bool(true)), ("id", .string(text)), ("reason", .string(reason.rawValue))]))
    }

    /// `POST /_emulator/lookups-leave-out {"user":"...","leaveOut":true}` (`leaveOut` false:
    /// no longer; absent: true).
    static func leaveOutOfLookups(_ request: EmulatorRequest, core: EmulatorCore) -> EmulatorResponse {
        let usage = "expected {\"user\":\"<user id>\",\"leaveOut\":true|false}"
        guard let body = JSONBody.object(request.body), let text = body["user"] as? String, let id = UInt64(text) else {
            return error(400, usage)
        }
        let leaveOut = body["leaveOut"].map { ($0 as? NSNumber)?.boolValue } ?? true
        guard let leaveOut else { return error(400, usage) }
        guard core.state.withLock({ $0.leaveOutOfLookups(id, leaveOut) }) else { return error(404, "no user \(text)") }
        return .json(200, .object([("ok", .bool(true)), ("user", .string(text)), ("leaveOut", .bool(leaveOut))]))
    }

    /// `GET /_emulator/tweets/:id`: the stored post as `PublicTweet` has it.
    static func tweet(_ text: String, core: EmulatorCore) -> EmulatorResponse {
        guard let id = UInt64(text), let tweet = core.state.withLock({ $0.store.publicTweet(id) }) else {
            return error(404, "no tweet \(text)")
        }
        let media: [EmulatorJSON] = tweet.media.map { item in
            .object([
                ("key", .string(item.key)), ("type", .string(item.type)), ("path", .string(item.path)),
                ("width", .int(item.width)), ("height", .int(item.height)), ("altText", .stringOrNull(item.altText)),
            ])
        }
        return .json(
            200,
            .object([
                ("id", .string(tweet.id)), ("text", .string(tweet.text)), ("longText", .stringOrNull(tweet.longText)),
                ("authorId", .string(tweet.authorID)), ("username", .string(tweet.authorUsername)),
                ("createdAt", .string(Timestamp.iso8601Milliseconds(tweet.createdAt))),
                ("inReplyToId", .stringOrNull(tweet.inReplyToID)), ("retweetOfId", .stringOrNull(tweet.retweetOfID)),
                ("quotedId", .stringOrNull(tweet.quotedID)), ("media", .array(media)),
                ("unavailable", .stringOrNull(tweet.unavailable?.rawValue)),
            ])
        )
    }
}
