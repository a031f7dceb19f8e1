import Foundation
import TwfeedBase
import TwfeedCore

/// `twfeed outbox`'s text for one status: its line (id, state, when queued, what it says,
/// what became of it), then an indented line for each thing the second floor added
/// when it has one: when it goes out, its photos, whom it answers.
enum OutboxLine {
    static func text(_ item: OutboxItem, now: Date) -> String {
        let detail = item.sentTweetID.map { "tweet \($0)" } ?? item.lastError?.description ?? ""
        var what: String
        switch item.kind {
        case .delete: what = "delete post \(item.targetTweetID?.description ?? "?")"
        case .post: what = item.text.replacingOccurrences(of: "\n", with: " ⏎ ").cutAtWord(limit: 40)
        }
        if let thread = item.thread { what = "[part \(thread.part)/\(thread.parts) of #\(thread.id)] " + what }
        var lines = [
            "#\(item.id)  \(item.state.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(Timestamp.iso8601(item.createdAt))  \(what)  \(detail)"
        ]
        if let notBefore = item.notBefore, item.state.isUnderway || item.state == .blocked {
            lines.append("    \(notBefore > now ? "goes out at" : "due since") \(Timestamp.iso8601(notBefore))")
        }
        for photo in item.photos {
            let alt = photo.alt.map { " \"\($0.replacingOccurrences(of: "\n", with: " ⏎ ").cutAtWord(limit: 60))\"" } ?? " (no alt text)"
            let upload = photo.mediaID.map { ", uploaded as \($0)" } ?? ""
            lines.append("    photo \(photo.fileName) (\(photo.type.rawValue), \(photo.byteCount) bytes)\(alt)\(upload)")
        }
        if let replyTo = item.replyToID, item.kind == .post {
            lines.append("    replying to \(replyTo)")
        } else if let thread = item.thread, thread.part > 1, item.state.isUnderway || item.state == .blocked {
            lines.append("    replying to part \(thread.part - 1) once it is sent")
        }
        return lines.joined(separator: "\n")
    }
}
