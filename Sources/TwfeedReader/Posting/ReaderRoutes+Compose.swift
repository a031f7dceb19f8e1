import Foundation
import HTTPTypes
import Hummingbird
import TwfeedBilling
import TwfeedCore
import TwfeedStore
import TwitterText

/// `/compose`: write a status or a reply, check it, queue it (INTERFACE.md, "The reader
/// as the app"). No script: the check is a round trip to the server, which measures the
/// text with twitter-text and prices it as `twfeed post --dry-run` does.
extension ReaderRoutes {
    /// `GET /compose[?reply_to=ID]`: an empty box, or a reply to a stored post that
    /// starts with its author's @name.
    static func composePage(_ request: Request, _ context: ReaderContext, _ source: ReaderSource) async throws -> Response {
        let replyTo = try tweetID(FormQuery(request.uri.query)["reply_to"], name: "reply_to")
        var model = try await composeModel(replyTo: replyTo, text: "", context, source)
        if let username = model.replying?.tweet.post.username, !username.isEmpty, model.replying?.tweet.post.name != "unknown author" {
            model.text = "@\(username) "
        }
        return try html(PageTemplates.render(model, withTemplate: "compose"))
    }

    /// `POST /compose` with `text`, `reply_to`, `csrf` and `action`: `check` shows the
    /// verdict and price (200); `queue` queues a valid status as `twfeed post` does and
    /// goes to `/outbox` (303), or shows the text again with the reason (422).
    static func compose(_ request: Request, _ context: ReaderContext, _ source: ReaderSource) async throws -> Response {
        let form = try await checkedForm(request, context, source)
        // A browser sends a textarea's line breaks as CRLF; the status has the user's LF.
        let text = (form["text"] ?? "").replacingOccurrences(of: "\r\n", with: "\n")
        let replyTo = try tweetID(form["reply_to"].flatMap { $0.isEmpty ? nil : $0 }, name: "reply_to")
        let action = form["action"] ?? "check"
        guard action == "check" || action == "queue" else {
            throw HTTPError(.badRequest, message: "action: \(action) is not check or queue")
        }
        var model = try await composeModel(replyTo: replyTo, text: text, context, source)
        let length = TweetLengthCounter.measure(text)
        let pricing = PostPricing(text: text, summoned: try await source.database.summons(replyTo), prices: source.config.api.prices)
        var problem: String?
        do { _ = try PostValidator.validate(text) } catch let error as TwfeedError { problem = error.message }
        model.check = ComposeModel.Check(
            weightedLength: length.weightedLength,
            maxLength: length.maxWeightedLength,
            verdictName: problem == nil ? "valid" : "invalid",
            verdict: problem.map { "Not valid: \($0)." } ?? "Valid: it can be queued.",
            cost: pricing.price.formatted,
            why: pricing.reason + (source.config.api.billsRealMoney ? "" : " (\(TwfeedConfig.API.playMoneyNote))")
        )
        if action == "queue" {
            if problem == nil {
                _ = try await source.outbox.enqueue(text: text, replyTo: replyTo, now: source.clock.now())
                return Response(status: .seeOther, headers: [.location: "/outbox", .cacheControl: "no-store"])
            }
            model.message = "Not queued: \(problem!)."
            return try html(PageTemplates.render(model, withTemplate: "compose"), status: .unprocessableContent)
        }
        return try html(PageTemplates.render(model, withTemplate: "compose"))
    }

    /// The page around the box: the post answered (when stored) and whether X may refuse
    /// the reply (self-serve access lets an app reply only to an author who summoned the
    /// account: mentioned it, or quoted or replied to one of its posts).
    static func composeModel(replyTo: TweetID?, text: String, _ context: ReaderContext, _ source: ReaderSource) async throws -> ComposeModel {
        let now = source.clock.now()
        var model = ComposeModel(
            heading: replyTo == nil ? "New status" : "Reply",
            header: await header(current: "/compose", context: context, source: source, now: now, stored: nil),
            label: replyTo == nil ? "Your status" : "Your reply",
            text: text,
            replyTo: replyTo?.description
        )
        guard let replyTo else { return model }
        let item = try await source.database.feedItem(replyTo, avatarPath: source.avatarHref)
        if let item {
            let links = try await source.database.tweetLinks(FeedItem.linkIDs([item]))
            model.replying = RenderedTweet(TweetModel(item, links: links, now: now))
        }
        if try await !source.database.summons(replyTo) {
            let who = item?.author.map { "@\($0.username)" } ?? "The author of post \(replyTo)"
            model.warning =
                "\(who) did not mention you: with self-serve API access X may refuse this reply. "
                + "If it does, the outbox shows the reason X gives."
        }
        return model
    }
}
