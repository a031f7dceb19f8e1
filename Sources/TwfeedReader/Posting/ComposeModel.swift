import Mustache

/// `/compose`: the parts (a status, or a thread's), their photos and descriptions, the
/// time to send, the post it answers, and the check's verdict and price for each part.
struct ComposeModel {
    struct Check {
        /// "Part 2" in a thread; nil for a lone status.
        var part: String?
        var weightedLength: Int
        var maxLength: Int
        /// `valid` or `invalid`, for the stylesheet and tests.
        var verdictName: String
        var verdict: String
        var cost: String
        var why: String
    }

    struct Photo {
        /// `photo_N_K` and `alt_N_K`.
        var fileField: String
        var altField: String
        var slot: Int
        var alt: String
        /// The file chosen for this slot in the post the page answers: a browser cannot
        /// be given it back, so the page says to choose it again.
        var previous: String?
    }

    struct Part {
        var number: Int
        var field: String
        var label: String
        var text: String
        /// A later part is folded away until it holds something.
        var open: Bool
        var photos: [Photo]
    }

    var heading: String
    var header: HeaderModel
    var label: String
    var parts: [Part]
    var replyTo: String?
    var replying: RenderedTweet?
    var warning: String?
    var message: String?
    var checks: [Check] = []
    var at: String = ""
    var atOffset: String = ""
    var zoneNote: String = ""

    init(heading: String, header: HeaderModel, label: String, form: ComposeForm?, replyTo: String?) {
        self.heading = heading
        self.header = header
        self.label = label
        self.replyTo = replyTo
        parts = (1...ComposeForm.maxParts).map { number in
            let posted = form?.parts[number - 1]
            return Part(
                number: number,
                field: ComposeForm.Part.textField(number),
                label: number == 1 ? label : "Part \(number), a reply to part \(number - 1)",
                text: posted?.text ?? "",
                open: number == 1 || posted?.isBlank == false,
                photos: (1...ComposeForm.photosPerPart).map { slot in
                    let photo = posted?.photos[slot - 1]
                    return Photo(
                        fileField: "photo_\(number)_\(slot)",
                        altField: "alt_\(number)_\(slot)",
                        slot: slot,
                        alt: photo?.alt ?? "",
                        previous: photo?.file.map { $0.fileName.isEmpty ? "a file" : $0.fileName }
                    )
                }
            )
        }
        at = form?.at ?? ""
        atOffset = form?.atOffset ?? ""
    }

    /// Part 1's text (a reply starts with its author's @name).
    var text: String {
        get { parts[0].text }
        set { parts[0].text = newValue }
    }
}

extension ComposeModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": "compose"
        case "heading": heading
        case "header": header
        case "csrf": header.csrf
        case "first": parts[0]
        case "later": Array(parts.dropFirst())
        case "replyTo": replyTo
        case "replying": replying
        case "warning": warning
        case "message": message
        case "checks": checks
        case "at": at
        case "atOffset": atOffset
        case "zoneNote": zoneNote
        case "maxParts": ComposeForm.maxParts
        case "photosPerPart": ComposeForm.photosPerPart
        default: nil
        }
    }
}

extension ComposeModel.Part: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "number": number
        case "field": field
        case "label": label
        case "text": text
        case "open": open
        case "photos": photos
        default: nil
        }
    }
}

extension ComposeModel.Photo: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "fileField": fileField
        case "altField": altField
        case "slot": slot
        case "alt": alt
        case "previous": previous
        default: nil
        }
    }
}

extension ComposeModel.Check: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "part": part
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
