import Foundation
import Mustache
import TwfeedBilling
import TwfeedCore

/// `/outbox`: the statuses, newest first, with their states and what can be done.
struct OutboxPageModel {
    struct Item {
        var id: String
        var text: String
        var replyTo: String?
        var state: String
        var attempts: Int
        var lastError: String?
        /// When a status still waiting stops being sent (`outbox.maxAgeHours`).
        var expires: TimeModel?
        var cost: String
        var sentHref: String?
        var canCancel: Bool
        var canRetry: Bool

        init(_ item: OutboxItem, cost: MicroUSD, maxAgeHours: Double, now: Date) {
            id = String(item.id)
            text = item.text
            replyTo = item.replyToID?.description
            state = item.state.rawValue
            attempts = item.attempts
            lastError = item.lastError?.description
            let waiting: Set<OutboxState> = [.pending, .sending, .uncertain]
            expires =
                waiting.contains(item.state) && maxAgeHours > 0
                ? TimeModel(item.queuedAt.addingTimeInterval(maxAgeHours * 3600), now: now) : nil
            self.cost = cost.formatted
            sentHref = item.sentTweetID.map { "https://x.com/i/web/status/\($0)" }
            canCancel = item.state == .pending || item.state == .failed
            canRetry = item.state == .failed
        }
    }

    var header: HeaderModel
    var message: String?
    var items: [Item]
    var olderHref: String?
}

extension OutboxPageModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": "outbox"
        case "heading": "Outbox"
        case "header": header
        case "csrf": header.csrf
        case "message": message
        case "items": items
        case "olderHref": olderHref
        default: nil
        }
    }
}

extension OutboxPageModel.Item: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "text": text
        case "replyTo": replyTo
        case "state": state
        case "attempts": attempts
        case "lastError": lastError
        case "expires": expires
        case "cost": cost
        case "sentHref": sentHref
        case "canCancel": canCancel
        case "canRetry": canRetry
        default: nil
        }
    }
}
