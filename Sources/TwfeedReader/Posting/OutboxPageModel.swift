import Foundation
import Mustache
import TwfeedBilling
import TwfeedCore

/// `/outbox`: the statuses, newest first, with their kinds, thread parts, photos,
/// times to send, states, and what can be done.
struct OutboxPageModel {
    struct Photo {
        var fileName: String
        var alt: String?
        /// `uploaded`, `uploaded and described`, or `not uploaded yet`.
        var upload: String
    }

    struct Item {
        var id: String
        /// `post` or `delete`.
        var kind: String
        var text: String
        var replyTo: String?
        /// The post a deletion removes.
        var target: String?
        /// "part 2 of 10" in a thread.
        var part: String?
        var photos: [Photo]
        var state: String
        var attempts: Int
        var lastError: String?
        /// Its time to send (`notBefore`): "goes out at" while it waits for it.
        var goesOut: TimeModel?
        var goesOutLabel: String?
        /// When a status still waiting stops being sent (`outbox.maxAgeHours`, counted
        /// from its time to send when that is later than its queueing).
        var expires: TimeModel?
        var cost: String
        var sentHref: String?
        var canCancel: Bool
        var canRetry: Bool

        /// - Parameter cost: nil for a deletion, which `PostPricing` does not price.
        init(_ item: OutboxItem, cost: MicroUSD?, maxAgeHours: Double, now: Date) {
            id = String(item.id)
            kind = item.kind.rawValue
            text = item.text
            replyTo = item.replyToID?.description
            target = item.kind == .delete ? item.targetTweetID?.description : nil
            part = item.thread.map { "part \($0.part) of \($0.parts)" }
            photos = item.photos.map { photo in
                Photo(
                    fileName: photo.fileName,
                    alt: photo.alt,
                    upload: photo.mediaID == nil ? "not uploaded yet" : (photo.altSetAt == nil ? "uploaded" : "uploaded and described")
                )
            }
            state = item.state.rawValue
            attempts = item.attempts
            lastError = item.lastError?.description
            let waiting: Set<OutboxState> = [.pending, .sending, .uncertain, .blocked]
            if let notBefore = item.notBefore {
                goesOut = TimeModel(notBefore, now: now)
                goesOutLabel = waiting.contains(item.state) && notBefore > now ? "goes out at" : "not before"
            }
            expires =
                waiting.contains(item.state) && item.state != .blocked && maxAgeHours > 0
                ? TimeModel(item.ageOrigin.addingTimeInterval(maxAgeHours * 3600), now: now) : nil
            self.cost = cost?.formatted ?? "—"
            sentHref = item.sentTweetID.map { "https://x.com/i/web/status/\($0)" }
            canCancel = item.state == .pending || item.state == .failed || item.state == .blocked
            canRetry = item.state == .failed || item.state == .blocked
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
        case "kind": kind
        case "text": text
        case "replyTo": replyTo
        case "target": target
        case "part": part
        case "photos": photos
        case "hasPhotos": !photos.isEmpty
        case "goesOut": goesOut
        case "goesOutLabel": goesOutLabel
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

extension OutboxPageModel.Photo: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "fileName": fileName
        case "alt": alt
        case "upload": upload
        default: nil
        }
    }
}
