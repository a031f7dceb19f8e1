import Foundation
import TwfeedBase

/// `POST /2/tweets`: text, a reply (`reply.in_reply_to_tweet_id`; the account's own post
/// too, which is how a thread is made) and photos (`media.media_ids`, 1-4 of the account's
/// uploads whose ids have not expired; then the text may be absent).
extension V2Routes {
    static func post(_ context: RequestContext, state: inout EmulatorState) -> EmulatorResponse {
        guard let body = JSONBody.object(context.request.body) else {
            return ErrorBody.problem(
                400,
                title: "Invalid Request",
                detail: "The request body is not a JSON object.",
                type: "https://api.twitter.com/2/problems/invalid-request"
            )
        }
        let media: [UploadedMedia]
        switch attachedMedia(body["media"], state: state, now: context.now) {
        case .media(let items): media = items
        case .refused(let response): return response
        }
        guard let text = body["text"] as? String ?? (media.isEmpty ? nil : "") else {
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
        if let rejection = state.rejection(ofPost: text, replyTo: replyTo, hasMedia: !media.isEmpty, now: context.now) {
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
        let (tweet, kind) = state.accept(post: text, replyTo: replyTo, media: media, dialect: .v2, now: context.now)
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
}

extension V2Routes {
    /// A post's photos, or the answer refusing them.
    enum AttachedMedia {
        case media([UploadedMedia])
        case refused(EmulatorResponse)
    }

    /// The uploads a post's `media` object names: none without one; refused (400) when
    /// `media_ids` is missing, not 1-4 ids, names one twice, or names one the account
    /// cannot use (unknown, expired, another user's).
    static func attachedMedia(_ value: Any?, state: EmulatorState, now: Date) -> AttachedMedia {
        guard let value else { return .media([]) }
        func refuse(_ value: String, _ message: String) -> AttachedMedia {
            .refused(ErrorBody.invalidRequest([.init(parameter: "media.media_ids", value: value, message: message)]))
        }
        guard let ids = (value as? [String: Any])?["media_ids"] as? [Any] else {
            return refuse("", "$.media.media_ids: is missing but it is required")
        }
        guard (1...4).contains(ids.count) else {
            return refuse("\(ids.count) ids", "$.media.media_ids: must have from 1 to 4 items")
        }
        var media: [UploadedMedia] = []
        for item in ids {
            guard let text = item as? String, isID(text), let id = UInt64(text) else {
                return refuse("\(item)", "$.media.media_ids: does not match the regex pattern ^[0-9]{1,19}$")
            }
            guard !media.contains(where: { $0.id == id }) else {
                return refuse(text, "$.media.media_ids: [\(text)] is listed more than once")
            }
            switch state.uploads.usable(id, now: now, store: state.store) {
            case .usable(let upload): media.append(upload)
            case .refused(let refusal): return .refused(unusableMedia(text, refusal, parameter: "media.media_ids"))
            }
        }
        return .media(media)
    }
}
