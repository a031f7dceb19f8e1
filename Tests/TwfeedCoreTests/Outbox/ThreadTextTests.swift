import Testing
import TwfeedCore

/// `twfeed thread FILE`: where the parts are cut, and how a bad part is named.
struct ThreadTextTests {
    @Test("parts are cut at lines that are exactly ---, trimmed of the blank lines around them")
    func cutting() {
        let text = "First part,\nsecond line.\n\n---\n\nSecond part.\n---  \r\nThird — with --- inside.\n"
        #expect(ThreadText.parts(of: text) == ["First part,\nsecond line.", "Second part.", "Third — with --- inside."])
    }

    @Test("Windows line ends split alike and leave no CR in a part; an indented --- is text")
    func lineEnds() {
        #expect(ThreadText.parts(of: "one\r\ntwo\r\n---\r\nthree\r\n") == ["one\ntwo", "three"])
        #expect(ThreadText.parts(of: "one\n ---\ntwo") == ["one\n ---\ntwo"])
        #expect(ThreadText.parts(of: "one\n----\ntwo") == ["one\n----\ntwo"])
    }

    @Test("separators at either end make no empty part; one in the middle stays and is refused")
    func emptyParts() throws {
        #expect(ThreadText.parts(of: "---\nfront\n---\nback\n---\n") == ["front", "back"])
        #expect(ThreadText.parts(of: "\n---\n---\n") == [])
        let parts = ThreadText.parts(of: "a\n---\n \n---\nc")
        #expect(parts == ["a", "", "c"])
        #expect(throws: TwfeedError(.invalidData, "part 2: status is empty")) { try ThreadText.validate(parts) }
        #expect(throws: TwfeedError(.invalidData, "thread is empty: no part to post")) { try ThreadText.validate([]) }
    }

    @Test("each part is checked as a post; the first bad one is named with its number (65)")
    func partsAreChecked() throws {
        try ThreadText.validate(["one", String(repeating: "b", count: 280)])
        let parts = ["one", "two", String(repeating: "x", count: 301), String(repeating: "y", count: 400)]
        #expect(throws: TwfeedError(.invalidData, "part 3: status is 301/280 characters")) { try ThreadText.validate(parts) }
    }
}
