import Foundation
import TwfeedBase

/// `POST /2/tweets`.
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
        if let rejection = state.rejection(ofPost: text, replyTo: replyTo, now: context.now) {
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
        let (tweet, kind) = state.accept(post: text, replyTo: replyTo, dialect: .v2, now: context.now)
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
