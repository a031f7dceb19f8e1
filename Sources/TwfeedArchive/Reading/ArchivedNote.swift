import Foundation
import TwfeedBase
import TwfeedCore

/// One entry of `note-tweet.js`: a long post's whole text. Its `noteTweetId` is not the
/// post's id, so it is matched to its post by time and text (`NoteIndex`).
package struct ArchivedNote: Sendable, Equatable {
    package var noteID: String
    package var createdAt: Date
    /// As the author typed it: notes are not HTML-escaped.
    package var text: String
    package var links: [TweetLink]

    package init(noteID: String, createdAt: Date, text: String, links: [TweetLink] = []) {
        self.noteID = noteID
        self.createdAt = createdAt
        self.text = text
        self.links = links
    }

    /// `{"noteTweet": {"noteTweetId", "createdAt", "core": {"text", "urls": [{"shortUrl",
    /// "expandedUrl", "displayUrl"}]}}}`.
    static func decode(_ object: JSONValue, file: String, index: Int) throws(ArchiveError) -> ArchivedNote {
        guard let id = object.text("noteTweetId"), let created = object.text("createdAt").flatMap(Timestamp.parseISO8601),
            let core = object["core"], let text = core.text("text")
        else { throw ArchiveError(.badData, file: file, "entry \(index + 1) is not a note (noteTweetId, createdAt, core.text)") }
        let links = (core["urls"]?.array ?? []).compactMap { url -> TweetLink? in
            guard let short = url.text("shortUrl"), let expanded = url.text("expandedUrl") else { return nil }
            return TweetLink(url: short, expandedURL: expanded, displayURL: url.text("displayUrl"))
        }
        return ArchivedNote(noteID: id, createdAt: created, text: text, links: links)
    }
}

/// The notes by the second they were created in, each matched to at most one post: the
/// post created in the same second whose text the note's begins with. A post's text is
/// HTML-escaped and cut (it ends in "…" or a `t.co` link), a note's is neither; a reply's
/// note may lack the post's leading @mentions, which the whole text keeps.
///
/// "Begins with" is by Unicode scalars, not Swift's Characters: X cuts a post by code
/// points, so the cut may fall inside a character of several (👍 without its 🏽, half a
/// flag, part of a ZWJ family), and that last character is then not one of the note's.
struct NoteIndex {
    private var bySecond: [Int64: [ArchivedNote]] = [:]
    private var used: Set<String> = []
    private(set) var count = 0

    init(_ notes: [ArchivedNote]) {
        for note in notes { bySecond[Self.second(note.createdAt), default: []].append(note) }
        count = notes.count
    }

    var isEmpty: Bool { count == 0 }

    /// The note of a post created at `createdAt` with (unescaped) text `text`, and the
    /// post's whole text; nil when no unused note fits.
    mutating func match(createdAt: Date, text: String) -> (note: ArchivedNote, text: String)? {
        guard let candidates = bySecond[Self.second(createdAt)] else { return nil }
        let cut = Self.cutText(text)
        let mentions = Self.leadingMentions(cut)
        let bare = String(cut.dropFirst(mentions.count))
        // A post with no text of its own (a photo alone) cannot be told from another.
        guard !bare.isEmpty else { return nil }
        let cutLength = cut.unicodeScalars.count
        let bareLength = bare.unicodeScalars.count
        var best: (note: ArchivedNote, text: String, length: Int)?
        for note in candidates where !used.contains(note.noteID) {
            if Self.begins(note.text, with: cut), cutLength > (best?.length ?? -1) {
                best = (note, note.text, cutLength)
            } else if !mentions.isEmpty, Self.begins(note.text, with: bare), bareLength > (best?.length ?? -1) {
                best = (note, mentions + note.text, bareLength)
            }
        }
        guard let best else { return nil }
        used.insert(best.note.noteID)
        return (best.note, best.text)
    }

    /// Whether `text` starts with `start`, scalar by scalar (`String.hasPrefix` compares
    /// whole Characters, so a start cut inside one never matches).
    static func begins(_ text: String, with start: String) -> Bool {
        text.unicodeScalars.starts(with: start.unicodeScalars)
    }

    /// The text a cut post shares with its note: without the `t.co` links, the "…" and the
    /// white space the cut left at its end.
    static func cutText(_ text: String) -> String {
        var text = Substring(text)
        var changed = true
        while changed {
            changed = false
            while let last = text.last, last.isWhitespace || last == "…" {
                text.removeLast()
                changed = true
            }
            // The last word, when a `t.co` link (Swift's own search: Foundation's is slow on Linux).
            let wordStart = text.lastIndex(where: \.isWhitespace).map { text.index(after: $0) } ?? text.startIndex
            let word = text[wordStart...]
            if word.hasPrefix("https://t.co/"), word.dropFirst(13).allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                text = text[..<wordStart]
                changed = true
            }
        }
        return String(text)
    }

    /// The run of "@name " a reply's text starts with.
    static func leadingMentions(_ text: String) -> String {
        var rest = Substring(text)
        var taken = 0
        while rest.first == "@" {
            let name = rest.dropFirst().prefix(while: { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            guard !name.isEmpty else { break }
            let afterName = rest.dropFirst(1 + name.count)
            let space = afterName.prefix(while: { $0 == " " })
            guard !space.isEmpty else { break }
            taken += 1 + name.count + space.count
            rest = afterName.dropFirst(space.count)
        }
        return String(text.prefix(taken))
    }

    private static func second(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
}
