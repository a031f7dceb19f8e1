import Testing
@testable import TwfeedCore

/// A picture's last failure is a value; the store's one-line spelling, which rows written
/// before it was a type already use, reads back into the same value.
@Suite struct ImageFailureTests {
    @Test func theStoredLineReadsBackIntoItsReasonAndDetail() {
        let failure = ImageFailure(reason: "http_503", detail: "HTTP 503")
        #expect(failure.description == "http_503: HTTP 503")
        #expect(ImageFailure(stored: failure.description) == failure)
        // A detail may hold ": " itself; only the first one ends the reason.
        #expect(ImageFailure(stored: "timeout: no answer: 10 s") == ImageFailure(reason: "timeout", detail: "no answer: 10 s"))
    }

    @Test func aLineWithoutADetailIsAllReason() {
        #expect(ImageFailure(stored: "unexpected_304") == ImageFailure(reason: "unexpected_304", detail: ""))
        #expect(ImageFailure(stored: "unexpected_304").description == "unexpected_304")
    }
}
