import Foundation
import HTTPTypes
import Hummingbird
import TwfeedBilling
import TwfeedCore

/// `/outbox`: every status with its state, and Cancel and Retry (the transitions of
/// `twfeed outbox cancel|retry`; a blocked thread part takes both).
extension ReaderRoutes {
    static let outboxPageSize = 50

    /// `GET /outbox[?before=ID]`: newest first, a page at a time.
    static func outboxPage(_ request: Request, _ context: ReaderContext, _ source: ReaderSource) async throws -> Response {
        let text = FormQuery(request.uri.query)["before"]
        let before = try text.map { text in
            guard let id = Int64(text) else { throw HTTPError(.badRequest, message: "before: \(text) is not a status id") }
            return id
        }
        let model = try await outboxModel(before: before, message: nil, context, source)
        return try html(PageTemplates.render(model, withTemplate: "outbox"))
    }

    /// `POST /outbox/ID/cancel` and `POST /outbox/ID/retry` with `csrf`: 303 back to the
    /// outbox; a status in a state that does not allow it answers 409 with the reason.
    static func changeOutbox(_ request: Request, _ context: ReaderContext, _ source: ReaderSource) async throws -> Response {
        _ = try await checkedForm(request, context, source)
        guard let id = context.parameters.get("id").flatMap(Int64.init), let action = context.parameters.get("action"),
            action == "cancel" || action == "retry"
        else {
            throw HTTPError(.notFound)
        }
        do {
            if action == "cancel" {
                _ = try await source.outbox.cancel(id)
            } else {
                _ = try await source.outbox.retry(id, now: source.clock.now())
            }
        } catch let error as TwfeedError where error.code == .invalidData {
            let model = try await outboxModel(before: nil, message: error.message, context, source)
            return try html(PageTemplates.render(model, withTemplate: "outbox"), status: .conflict)
        }
        return Response(status: .seeOther, headers: [.location: "/outbox", .cacheControl: "no-store"])
    }

    static func outboxModel(before: Int64?, message: String?, _ context: ReaderContext, _ source: ReaderSource) async throws -> OutboxPageModel {
        let now = source.clock.now()
        let items = try await source.database.outboxItems(newestFirst: outboxPageSize, before: before)
        let prices = source.config.api.prices
        var model = OutboxPageModel(
            header: await header(current: "/outbox", context: context, source: source, now: now, stored: nil),
            message: message ?? (items.isEmpty ? (before == nil ? "Nothing queued yet." : "No older statuses.") : nil),
            items: []
        )
        for item in items {
            // What it costs (or cost) to post, at today's prices, as `outbox --json`. A
            // deletion's price (`api.prices.postDelete`) is not one of `PostPricing`'s.
            let cost =
                item.kind == .delete
                ? nil : PostPricing(text: item.text, summoned: try await source.database.summons(item.replyToID), prices: prices).price
            model.items.append(OutboxPageModel.Item(item, cost: cost, maxAgeHours: source.config.outbox.maxAgeHours, now: now))
        }
        if items.count == outboxPageSize, let last = items.last { model.olderHref = "/outbox?before=\(last.id)" }
        return model
    }
}
