import Foundation
import HTTPTypes
import Hummingbird
import TwfeedBilling
import TwfeedCore
import TwfeedStore
import TwitterText

/// `/compose`: write a status, a reply or a thread, with photos and a time to send,
/// check it, queue it (INTERFACE.md, "The reader as the app" and "The outbox, second
/// floor"). No script: the check is a round trip to the server, which measures each
/// part with twitter-text and prices it as `twfeed post --dry-run` does.
extension ReaderRoutes {
    /// `GET /compose[?reply_to=ID]`: an empty box, or a reply to a stored post that
    /// starts with its author's @name.
    static func composePage(_ request: Request, _ context: ReaderContext, _ source: ReaderSource) async throws -> Response {
        let replyTo = try tweetID(FormQuery(request.uri.query)["reply_to"], name: "reply_to")
        var model = try await composeModel(replyTo: replyTo, form: nil, context, source)
        if let username = model.replying?.tweet.post.username, !username.isEmpty, model.replying?.tweet.post.name != "unknown author" {
            model.text = "@\(username) "
        }
        return try html(PageTemplates.render(model, withTemplate: "compose"))
    }

    /// `POST /compose` (`multipart/form-data` from the page; a urlencoded form of text
    /// only works too) with the parts' texts and photos (`ComposeForm`), `reply_to`, the
    /// time to send, `csrf` and `action`: `check` shows each part's verdict and price
    /// (200); `queue` queues a valid status or thread as `twfeed post` and `twfeed thread`
    /// do and goes to `/outbox` (303), or shows the form again, filled, with one line
    /// naming the part and photo at fault (422). Nothing is queued unless all is valid.
    static func compose(_ request: Request, _ context: ReaderContext, _ source: ReaderSource) async throws -> Response {
        let posted = try await checkedForm(request, context, source, limit: source.composeLimit)
        let form = ComposeForm(posted)
        let replyTo = try tweetID(posted["reply_to"].flatMap { $0.isEmpty ? nil : $0 }, name: "reply_to")
        let action = posted["action"] ?? "check"
        guard action == "check" || action == "queue" else {
            throw HTTPError(.badRequest, message: "action: \(action) is not check or queue")
        }
        let now = source.clock.now()
        var model = try await composeModel(replyTo: replyTo, form: form, context, source)
        let used = form.used
        let summoned = try await source.database.summons(replyTo)
        let note = source.config.api.billsRealMoney ? "" : " (\(TwfeedConfig.API.playMoneyNote))"
        var timeProblem: String?
        var notBefore: Date?
        do { notBefore = try ComposeTime.parse(form.at, offset: form.atOffset, now: now) } catch let error as TwfeedError {
            timeProblem = error.message
        }
        // A dialect that cannot carry photos refuses them now, as `post --photo` does, not
        // at the upload hours later.
        let photoProblem = used.contains { !$0.chosen.isEmpty } ? source.config.api.photoRefusal.map { "photos: \($0)" } : nil
        var problem = timeProblem ?? photoProblem
        var drafts: [StatusDraft] = []
        do { drafts = try form.drafts(replyTo: replyTo, notBefore: notBefore) } catch let error as TwfeedError { problem = problem ?? error.message }
        model.checks = used.map { part in
            let length = TweetLengthCounter.measure(part.text)
            let pricing = PostPricing(text: part.text, summoned: part.number == 1 && summoned, prices: source.config.api.prices)
            // The part's own verdict (its text's, then its photos'), under its heading.
            var refusal: String?
            do { _ = try form.draft(part, named: false, replyTo: nil, notBefore: nil) } catch {
                refusal = (error as? TwfeedError)?.message ?? "\(error)"
            }
            return ComposeModel.Check(
                part: used.count > 1 ? "Part \(part.number)" : nil,
                weightedLength: length.weightedLength,
                maxLength: length.maxWeightedLength,
                verdictName: refusal == nil ? "valid" : "invalid",
                verdict: refusal.map { "Not valid: \($0)." } ?? "Valid: it can be queued.",
                cost: pricing.price.formatted,
                why: pricing.reason + note
            )
        }
        if action == "queue" {
            if let problem {
                model.message = "Not queued: \(problem)."
                return try html(PageTemplates.render(model, withTemplate: "compose"), status: .unprocessableContent)
            }
            if drafts.count == 1 {
                _ = try await source.outbox.enqueue(drafts[0], now: now)
            } else {
                _ = try await source.outbox.enqueueThread(drafts, now: now)
            }
            return Response(status: .seeOther, headers: [.location: "/outbox", .cacheControl: "no-store"])
        }
        // The parts' sections say what is wrong with each; the time is said above the form.
        if let general = timeProblem ?? photoProblem { model.message = "Not valid: \(general)." }
        return try html(PageTemplates.render(model, withTemplate: "compose"))
    }

    /// The page around the box: the post answered (when stored) and whether X may refuse
    /// the reply (self-serve access lets an app reply only to an author who summoned the
    /// account: mentioned it, or quoted or replied to one of its posts).
    static func composeModel(
        replyTo: TweetID?,
        form: ComposeForm?,
        _ context: ReaderContext,
        _ source: ReaderSource
    ) async throws
        -> ComposeModel
    {
        let now = source.clock.now()
        var model = ComposeModel(
            heading: replyTo == nil ? "New status" : "Reply",
            header: await header(current: "/compose", context: context, source: source, now: now, stored: nil),
            label: replyTo == nil ? "Your status" : "Your reply",
            form: form,
            replyTo: replyTo?.description
        )
        model.zoneNote = ComposeTime.zoneName(.current, at: now)
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
