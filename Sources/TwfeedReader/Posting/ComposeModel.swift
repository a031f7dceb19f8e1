import Mustache

/// `/compose`: the box, the post it answers, and the check's verdict and price.
struct ComposeModel {
    struct Check {
        var weightedLength: Int
        var maxLength: Int
        /// `valid` or `invalid`, for the stylesheet and tests.
        var verdictName: String
        var verdict: String
        var cost: String
        var why: String
    }

    var heading: String
    var header: HeaderModel
    var label: String
    var text: String
    var replyTo: String?
    var replying: RenderedTweet?
    var warning: String?
    var message: String?
    var check: Check?
}

extension ComposeModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": "compose"
        case "heading": heading
        case "header": header
        case "csrf": header.csrf
        case "label": label
        case "text": text
        case "replyTo": replyTo
        case "replying": replying
        case "warning": warning
        case "message": message
        case "check": check
        default: nil
        }
    }
}

extension ComposeModel.Check: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "weightedLength": weightedLength
        case "maxLength": maxLength
        case "verdictName": verdictName
        case "verdict": verdict
        case "cost": cost
        case "why": why
        default: nil
        }
    }
}
