import Foundation
import Testing
import TwfeedCore

@testable import TwfeedArchive

/// A long post finds its note (`NoteIndex`): created in the same second, its cut text the
/// start of the note's, compared scalar by scalar, so a post X cut inside a character of
/// several code points (a skin tone, a flag, a ZWJ family, an accent) still finds it.
@Suite struct NoteIndexTests {
    static let second = Date(timeIntervalSince1970: 1_694_163_600)

    static func note(_ text: String, id: String = "n1", at date: Date = second) -> ArchivedNote {
        ArchivedNote(noteID: id, createdAt: date, text: text)
    }

    @Test(arguments: [
        // 👍🏽 cut after 👍, its skin tone left out.
        ("Well done 👍🏽 and the rest of a long post", "Well done 👍…"),
        // 🇫🇷 cut after its first regional indicator.
        ("Off to 🇫🇷 for a week of long posts", "Off to 🇫… https://t.co/Ab12Cd"),
        // 👨‍👩‍👧 cut after the first ZWJ.
        ("The 👨‍👩‍👧 went out, and a long story follows", "The 👨\u{200D}…"),
        // é written as e and a combining accent, cut before the accent.
        ("Cafe\u{301} au lait, then a long story", "Cafe…"),
    ])
    func aPostCutInsideACharacterFindsItsNote(_ whole: String, _ cut: String) {
        var index = NoteIndex([Self.note(whole)])
        #expect(!whole.starts(with: NoteIndex.cutText(cut)), "Character by Character they differ: the cut is inside one")
        let matched = index.match(createdAt: Self.second.addingTimeInterval(0.4), text: cut)
        #expect(matched?.text == whole)
        #expect(matched?.note.noteID == "n1")
    }

    /// A reply's note lacks the leading @mentions; the whole text keeps them.
    @Test func aReplyCutInsideACharacterKeepsItsMentions() {
        var index = NoteIndex([Self.note("Agreed 👍🏽 and here is why, at length")])
        let matched = index.match(createdAt: Self.second, text: "@bob @cy_2 Agreed 👍…")
        #expect(matched?.text == "@bob @cy_2 Agreed 👍🏽 and here is why, at length")
    }

    /// The other rules hold: another second is another post, a note goes to one post, a
    /// text that is not the note's start is not its post, and the longest start wins.
    @Test func theOtherRulesStand() {
        var index = NoteIndex([Self.note("Well done 👍🏽 and more")])
        #expect(index.match(createdAt: Self.second.addingTimeInterval(1), text: "Well done 👍…") == nil, "another second")
        #expect(index.match(createdAt: Self.second, text: "Well dune…") == nil, "another text")
        #expect(index.match(createdAt: Self.second, text: "Well done 👍…") != nil)
        #expect(index.match(createdAt: Self.second, text: "Well done 👍…") == nil, "the note was used")

        var two = NoteIndex([Self.note("Well done", id: "short"), Self.note("Well done 👍🏽 and more", id: "long")])
        #expect(two.match(createdAt: Self.second, text: "Well done 👍…")?.note.noteID == "long")
    }
}
