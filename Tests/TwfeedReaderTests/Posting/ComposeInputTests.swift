import Foundation
import NIOCore
import Testing
@testable import TwfeedCore
@testable import TwfeedReader
import TwfeedTesting

/// How the compose page reads what a browser sends: a multipart body's fields and files
/// as browsers write them, and a time without an offset in the reader machine's zone,
/// summer time included.
struct ComposeInputTests {
    @Test func aBrowsersMultipartBodyIsReadFieldsFilesAndNames() throws {
        let type = #"multipart/form-data; boundary="----WebKitFormBoundaryAbC""#
        let boundary = try #require(MultipartForm.boundary(ofContentType: type))
        #expect(boundary == "----WebKitFormBoundaryAbC")
        #expect(MultipartForm.boundary(ofContentType: "application/x-www-form-urlencoded") == nil)
        // A preamble, a name with an escaped quote, an old browser's whole Windows path,
        // an empty file input, a text with CRLF, and bytes that start like the boundary.
        let body =
            "ignored preamble\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nline one\r\nline two\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo_1_1\"; filename=\"C:\\\\Users\\\\me\\\\cat \\\"1\\\".png\"\r\n"
            + "Content-Type: image/png\r\n\r\n\u{89}PNG\r\n--\(boundary.dropLast())\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo_1_2\"; filename=\"\"\r\nContent-Type: application/octet-stream\r\n\r\n\r\n"
            + "--\(boundary)--\r\nepilogue"
        let form = try MultipartForm(ByteBuffer(string: body), boundary: boundary)
        #expect(form.fields["text"] == "line one\r\nline two")
        #expect(form.files.map(\.name) == ["photo_1_1", "photo_1_2"])
        #expect(form.files[0].file.fileName == #"cat "1".png"#)
        #expect(form.files[0].file.bytes == Data("\u{89}PNG\r\n--\(boundary.dropLast())".utf8))
        #expect(form.files[1].file == MultipartForm.File(fileName: "", bytes: Data()))
        #expect(throws: (any Error).self) { try MultipartForm(ByteBuffer(string: "--\(boundary)\r\nno end"), boundary: boundary) }
    }

    @Test func aTimeWithoutAnOffsetIsReadInTheMachinesZoneOnThatDate() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let now = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01T00:00:00Z
        let winter = try ComposeTime.parse("2030-01-02T12:00", offset: "", zone: paris, now: now)
        let summer = try ComposeTime.parse("2030-07-01T12:00", offset: "", zone: paris, now: now)
        #expect(winter.map(TimeModel.exact) == "2030-01-02 11:00:00 UTC")
        #expect(summer.map(TimeModel.exact) == "2030-07-01 10:00:00 UTC", "summer time")
        #expect(try ComposeTime.parse("2030-07-01T12:00", offset: "-0500", zone: paris, now: now).map(TimeModel.exact) == "2030-07-01 17:00:00 UTC")
        #expect(try ComposeTime.parse("", offset: "+01:00", zone: paris, now: now) == nil, "empty: now")
        // The current minute is not the past: the field has no seconds.
        #expect(try ComposeTime.parse("2030-01-01T00:00", offset: "Z", zone: paris, now: now.addingTimeInterval(50)) != nil)
        #expect(throws: TwfeedError.self) { try ComposeTime.parse("2029-12-31T23:58", offset: "Z", zone: paris, now: now) }
        #expect(ComposeTime.zoneName(paris, at: now) == "this machine's zone (Europe/Paris, now +01:00)")
    }
}
