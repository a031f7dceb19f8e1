import Foundation
import TwfeedCore

/// The compose form as posted: the parts of a status or thread, each with its text and
/// up to four photos with their descriptions, the post it answers, and a time to send.
///
/// Fields: part 1's text is `text` (the form's first version, which a urlencoded post
/// still sends), part N's `text_N`; photo K of part N is the file `photo_N_K` with its
/// description `alt_N_K`; `at` and `at_offset` the time to send (`ComposeTime`).
/// The page holds a fixed number of parts (no script adds one: the page carries none);
/// parts left empty after the last one written are not sent.
struct ComposeForm {
    /// The parts the page holds: a thread as long as the ones `twfeed thread` is tested
    /// with. With four photos of 5 MB in each, this sets the body's limit.
    static let maxParts = 10
    static let photosPerPart = PhotoValidator.maxPhotos
    /// What the page may post: every photo slot full at the largest size, and 2 MiB for
    /// the texts, descriptions and the multipart framing (10 texts of at most 25,000
    /// characters, 40 descriptions of 1,000, in UTF-8, are about 1.2 MB at the worst).
    static let bodyLimit = maxParts * photosPerPart * PhotoValidator.maxBytes + 2 * 1024 * 1024
    static let limitNote = "\(maxParts) parts of \(photosPerPart) photos of at most 5 MB, and their text"

    struct Photo {
        /// From 1, its slot on the page (`photo_N_K`).
        var slot: Int
        var file: MultipartForm.File?
        var alt: String
    }

    struct Part {
        /// From 1.
        var number: Int
        var text: String
        /// The page's slots, in order, then any other file the body named for this part.
        var photos: [Photo]

        var isBlank: Bool { text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && !photos.contains { $0.file != nil || !$0.alt.isEmpty } }
        var chosen: [Photo] { photos.filter { $0.file != nil } }

        static func textField(_ number: Int) -> String { number == 1 ? "text" : "text_\(number)" }
    }

    /// Every part the page holds, as posted (the page is shown again with them).
    var parts: [Part]
    var at: String
    var atOffset: String

    init(_ form: PostedForm) {
        // A browser sends a textarea's line breaks as CRLF; the status has the user's LF.
        func text(_ name: String) -> String { (form[name] ?? "").replacingOccurrences(of: "\r\n", with: "\n") }
        var files: [Int: [(slot: Int, file: MultipartForm.File)]] = [:]
        for (name, file) in form.files where !(file.fileName.isEmpty && file.bytes.isEmpty) {
            let numbers = name.split(separator: "_")
            guard numbers.count == 3, numbers[0] == "photo", let part = Int(numbers[1]), let slot = Int(numbers[2]) else { continue }
            files[part, default: []].append((slot, file))
        }
        let highest = max(Self.maxParts, files.keys.max() ?? 0)
        parts = (1...highest).map { number in
            var photos = (1...Self.photosPerPart).map { slot in
                Photo(slot: slot, file: nil, alt: text("alt_\(number)_\(slot)").trimmingCharacters(in: .whitespacesAndNewlines))
            }
            for (slot, file) in files[number] ?? [] {
                if (1...Self.photosPerPart).contains(slot), photos[slot - 1].file == nil {
                    photos[slot - 1].file = file
                } else {
                    photos.append(Photo(slot: slot, file: file, alt: text("alt_\(number)_\(slot)")))
                }
            }
            return Part(number: number, text: text(Part.textField(number)), photos: photos)
        }
        at = (form["at"] ?? "").trimmingCharacters(in: .whitespaces)
        atOffset = (form["at_offset"] ?? "").trimmingCharacters(in: .whitespaces)
    }

    /// The parts to send: the first, and each after it up to the last one written (a
    /// blank part between two written ones is sent to the checks, which refuse it).
    var used: [Part] {
        let last = parts.lastIndex { !$0.isBlank } ?? 0
        return Array(parts[...last])
    }

    /// The drafts to queue, or the first refusal as one line naming its part and photo
    /// (`part 2, photo 1 (map.png): not a JPEG, PNG, WebP or GIF image`; a lone post's
    /// part is not named).
    func drafts(replyTo: TweetID?, notBefore: Date?) throws -> [StatusDraft] {
        let used = used
        return try used.map { try draft($0, named: used.count > 1, replyTo: $0.number == 1 ? replyTo : nil, notBefore: notBefore) }
    }

    /// One part checked as a post: its text (`PostValidator`), how many photos, each
    /// photo (`PhotoValidator`, the CLI's checks). `named`: the refusal names the part.
    func draft(_ part: Part, named: Bool, replyTo: TweetID?, notBefore: Date?) throws -> StatusDraft {
        let culprit = named ? "part \(part.number)" : ""
        func refuse(_ what: String, _ message: String) -> TwfeedError {
            let names = [culprit, what].filter { !$0.isEmpty }.joined(separator: ", ")
            return TwfeedError(.invalidData, names.isEmpty ? message : "\(names): \(message)")
        }
        do {
            _ = try PostValidator.validate(part.text)
        } catch let error as TwfeedError {
            throw named ? refuse("", error.message) : error
        }
        let chosen = part.chosen
        if chosen.count > PhotoValidator.maxPhotos {
            throw refuse("", "\(chosen.count) photos; at most \(PhotoValidator.maxPhotos) on one post")
        }
        if let lone = part.photos.first(where: { $0.file == nil && !$0.alt.isEmpty }) {
            throw refuse("photo \(lone.slot)", "a description but no photo chosen")
        }
        let photos = try chosen.enumerated().map { index, photo in
            let file = photo.file!
            let alt = photo.alt.isEmpty ? nil : photo.alt
            do {
                let type = try PhotoValidator.check(file.bytes, alt: alt)
                let name = file.fileName.isEmpty ? "photo\(index + 1).\(type.fileExtension)" : file.fileName
                return PhotoDraft(fileName: name, type: type, bytes: file.bytes, alt: alt)
            } catch let error as TwfeedError {
                throw refuse("photo \(photo.slot) (\(file.fileName))", error.message)
            }
        }
        return StatusDraft(text: part.text, photos: photos, replyTo: replyTo, notBefore: notBefore)
    }
}
