import Foundation
import Testing
@testable import TwfeedCore
import TwfeedKit
@testable import TwfeedReader
import TwfeedTesting

/// The compose page's second floor: photos with their descriptions (multipart, their
/// bytes queued), a thread's parts, a time to send; each bad input answered with one
/// line naming the part and photo, the form shown again filled, nothing queued.
@Suite(.serialized)
struct ReaderComposePartsTests {
    typealias Browser = ReaderComposeTests.Browser

    static let png = ReaderHarness.png
    /// A still GIF (1×1), and one of two frames with the looping extension an animation carries.
    static let gif: [UInt8] = Array(Data(base64Encoded: "R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=")!)
    static let animated: [UInt8] =
        Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8)
        + [3, 1, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B]

    /// A form as the page posts it: the fields, then the files (an empty file input is a
    /// part with an empty file name and no bytes, as browsers send it). Written by the
    /// daemon's own multipart writer, which a photo upload sends.
    static func form(_ browser: Browser, _ fields: [(String, String)], files: [(String, String, [UInt8])] = [], action: String = "queue")
        -> MultipartBody
    {
        body([("csrf", browser.csrf)] + fields, files: files, action: action)
    }

    static func body(_ fields: [(String, String)], files: [(String, String, [UInt8])], action: String) -> MultipartBody {
        MultipartBody(
            parts: fields.map { MultipartBody.Part.field($0.0, $0.1) }
                + files.map { .file($0.0, fileName: $0.1, contentType: "application/octet-stream", bytes: Data($0.2)) }
                + [.field("action", action)]
        )
    }

    static func post(_ browser: Browser, _ body: MultipartBody, headers: [String: String]? = nil) async throws -> RawHTTP.Response {
        var sent = headers ?? ["Cookie": browser.cookie, "Origin": browser.reader.origin]
        sent["Content-Type"] = body.contentType
        return try await browser.reader.request("/compose", method: "POST", headers: sent, bytes: body.bytes)
    }

    @Test func aPhotoAndItsDescriptionAreQueuedWithTheBytesAndShownInTheOutbox() async throws {
        let world = try await ReaderHarness()
        try await world.withReader(signedIn: false) { reader in
            let browser = try await Browser.signIn(world, reader: reader)
            let page = try await browser.get("/compose").text
            #expect(page.contains(#"<form class="compose" method="post" action="/compose" enctype="multipart/form-data">"#))
            #expect(page.contains(#"<input type="file" id="photo_1_1" name="photo_1_1""#) && page.contains(#"name="alt_4_4""#))
            #expect(page.contains(#"<input type="datetime-local" id="at" name="at""#))
            #expect(page.contains(#"<details class="part" data-part="2"><summary>Add part 2</summary>"#), "later parts start folded")

            // The second slot left empty, as a browser sends an empty file input.
            let form = Self.form(browser, [("text", "A dot\r\nfor you"), ("alt_1_1", "A red dot <b>on white</b>"), ("alt_1_2", "")],
                                 files: [("photo_1_1", "dot.png", Self.png), ("photo_1_2", "", [])])
            let queued = try await Self.post(browser, form)
            #expect(queued.status == 303 && queued.headers["location"] == "/outbox")
            let item = try #require(try await world.database.outboxItems().first)
            #expect(item.text == "A dot\nfor you" && item.kind == .post && item.notBefore == nil && item.thread == nil)
            #expect(item.photos == [OutboxPhoto(position: 0, fileName: "dot.png", type: .png, byteCount: Self.png.count, alt: "A red dot <b>on white</b>")])
            #expect(try await world.database.photoBytes(outboxID: item.id, position: 0) == Data(Self.png), "the bytes are queued as sent")
            #expect(world.rings.withLock { $0 } == 1)

            let outbox = try await browser.get("/outbox").text
            #expect(outbox.contains(#"<td class="kind">post</td>"#))
            #expect(outbox.contains(#"<li class="photo"><span class="file">dot.png</span> · <span class="alt">A red dot &lt;b&gt;on white&lt;/b&gt;</span> · <span class="upload">not uploaded yet</span></li>"#))
            #expect(!outbox.contains("<b>on white"), "the description is text")
        }
    }

    @Test func aThreadOfThreePartsIsQueuedWholeInOrder() async throws {
        let world = try await ReaderHarness()
        try await world.withReader(signedIn: false) { reader in
            let browser = try await Browser.signIn(world, reader: reader)
            let fields = [("text", "1/3 start"), ("text_2", "2/3 middle"), ("text_3", "3/3 end"), ("alt_2_1", "a still"), ("text_4", "  ")]
            let check = try await Self.post(browser, Self.form(browser, fields, files: [("photo_2_1", "still.gif", Self.gif)], action: "check"))
            #expect(check.status == 200 && check.text.components(separatedBy: #"<section class="check check-valid""#).count == 4)
            #expect(check.text.contains("<h2>Part 3</h2>") && !check.text.contains("<h2>Part 4</h2>"), "blank parts after the last are not sent")
            #expect(check.text.contains(#"<details class="part" data-part="3" open>"#) && check.text.contains("chosen before: still.gif; choose it again"))
            #expect(try await world.database.outboxItems().isEmpty, "a check queues nothing")

            let queued = try await Self.post(browser, Self.form(browser, fields, files: [("photo_2_1", "still.gif", Self.gif)]))
            #expect(queued.status == 303)
            let items = try await world.database.outboxItems().sorted { $0.id < $1.id }
            #expect(items.map(\.text) == ["1/3 start", "2/3 middle", "3/3 end"])
            #expect(items.map { $0.thread?.part } == [1, 2, 3] && items.allSatisfy { $0.thread?.parts == 3 && $0.thread?.id == items[0].id })
            #expect(items.map(\.photos.count) == [0, 1, 0] && items[1].photos.first?.type == .gif && items[1].photos.first?.alt == "a still")
            let outbox = try await browser.get("/outbox").text
            #expect(outbox.contains(#"<span class="part">part 2 of 3</span>"#) && outbox.contains(#"<span class="part">part 3 of 3</span>"#))
        }
    }

    @Test func aTimeToSendIsReadWithItsOffsetAndShownAsWhenItGoesOut() async throws {
        let world = try await ReaderHarness()
        try await world.withReader(signedIn: false) { reader in
            let browser = try await Browser.signIn(world, reader: reader)
            let typed = try await Self.post(browser, Self.form(browser, [("text", "later"), ("at", "2030-01-02T09:30"), ("at_offset", "+01:00")]))
            #expect(typed.status == 303)
            let own = try await Self.post(browser, Self.form(browser, [("text", "own offset"), ("at", "2030-01-02T09:30:15-05:00"), ("at_offset", "+01:00")]))
            #expect(own.status == 303, "a time with its own offset keeps it")
            let local = try await Self.post(browser, Self.form(browser, [("text", "machine zone"), ("at", "2030-07-01T12:00")]))
            #expect(local.status == 303)
            let items = try await world.database.outboxItems()
            let times = Dictionary(uniqueKeysWithValues: items.map { ($0.text, $0.notBefore) })
            #expect(times["later"] == Date(timeIntervalSince1970: 1_893_573_000))  // 2030-01-02T08:30:00Z
            #expect(times["own offset"] == Date(timeIntervalSince1970: 1_893_594_615))  // 14:30:15Z
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .current
            #expect(times["machine zone"] == calendar.date(from: DateComponents(year: 2030, month: 7, day: 1, hour: 12)), "no offset: this machine's zone")
            let outbox = try await browser.get("/outbox").text
            #expect(outbox.contains(#"<td class="goes-out">goes out at <time datetime="2030-01-02T08:30:00Z" title="2030-01-02 08:30:00 UTC">2030-01-02 08:30:00 UTC</time></td>"#))
            // The expiry counts from the time to send.
            #expect(outbox.contains(#"<td class="expires"><time datetime="2030-01-03T08:30:00Z""#))
            // Check says what is wrong with the time, whatever the parts say.
            let checked = try await Self.post(browser, Self.form(browser, [("text", String(repeating: "a", count: 281)), ("at", "soon")], action: "check"))
            #expect(checked.status == 200 && checked.text.contains(#"<p class="message">Not valid: time to send: &quot;soon&quot; is not a date and time"#))
            #expect(checked.text.contains("Not valid: status is 281/280 characters."))
        }
    }

    @Test func eachBadInputIsOneLineNamingItsPartAndPhotoAndQueuesNothing() async throws {
        let world = try await ReaderHarness()
        try await world.withReader(signedIn: false) { reader in
            let browser = try await Browser.signIn(world, reader: reader)
            let big = Self.png + [UInt8](repeating: 0, count: PhotoValidator.maxBytes + 1 - Self.png.count)
            let five = (1...5).map { ("photo_1_\($0)", "p\($0).png", Self.png) }
            let cases: [(String, [(String, String)], [(String, String, [UInt8])], String)] = [
                ("too big", [("text", "hi"), ("alt_1_2", "kept alt")], [("photo_1_2", "big.png", big)],
                 "photo 2 (big.png): 5242881 bytes, over the 5 MB limit (5242880 bytes)"),
                ("not an image", [("text", "hi")], [("photo_1_1", "cat.png", Array("<html>not a picture</html>".utf8))],
                 "photo 1 (cat.png): not a JPEG, PNG, WebP or GIF image"),
                ("animated", [("text", "hi")], [("photo_1_1", "spin.gif", Self.animated)],
                 "photo 1 (spin.gif): an animated GIF (2 frames); only a still GIF can be posted"),
                ("5 photos", [("text", "hi")], five, "5 photos; at most 4 on one post"),
                ("alt too long", [("text", "hi"), ("alt_1_1", String(repeating: "é", count: 1_001))], [("photo_1_1", "dot.png", Self.png)],
                 "photo 1 (dot.png): alt text is 1001/1000 characters"),
                ("alt, no photo", [("text", "hi"), ("alt_1_3", "a cat")], [], "photo 3: a description but no photo chosen"),
                ("a part too long", [("text", "one"), ("text_2", String(repeating: "a", count: 281))], [],
                 "part 2: status is 281/280 characters"),
                ("a photo of a part", [("text", "one"), ("text_2", "two")], [("photo_2_4", "x.jpg", Array("GIF".utf8))],
                 "part 2, photo 4 (x.jpg): not a JPEG, PNG, WebP or GIF image"),
                ("a blank part between", [("text", "one"), ("text_3", "three")], [], "part 2: status is empty"),
                ("a malformed time", [("text", "hi"), ("at", "tomorrow 9am")], [],
                 #"time to send: "tomorrow 9am" is not a date and time like 2026-12-01T09:00 (with a UTC offset like +01:00, or none for this machine's zone"#),
                ("a bad offset", [("text", "hi"), ("at", "2030-01-02T09:30"), ("at_offset", "CET")], [],
                 #"time to send: the UTC offset "CET" is not like +01:00, -05:00 or Z"#),
                ("a past time", [("text", "hi"), ("at", "2020-01-02T09:30"), ("at_offset", "Z")], [],
                 "time to send: 2020-01-02 09:30:00 UTC is in the past; leave it empty to send now"),
                ("31 April", [("text", "hi"), ("at", "2030-04-31T09:30"), ("at_offset", "Z")], [], #"time to send: "2030-04-31T09:30" is not a date and time like"#),
            ]
            for (what, fields, files, line) in cases {
                let answer = try await Self.post(browser, Self.form(browser, fields, files: files))
                #expect(answer.status == 422, "\(what): \(answer.status)")
                let messages = answer.text.components(separatedBy: #"<p class="message">"#).dropFirst()
                #expect(messages.count == 1 && messages.first?.contains("Not queued: " + PageEscaping.escape(line)) == true,
                        "\(what): \(messages.first?.prefix(200) ?? "no message")")
                #expect(messages.first?.components(separatedBy: "</p>").first?.contains("\n") == false, "\(what): one line")
                // The form comes back filled: the texts, descriptions and time as typed.
                for (name, value) in fields where !value.trimmingCharacters(in: .whitespaces).isEmpty && value.count < 300 {
                    #expect(answer.text.contains(PageEscaping.escape(value)), "\(what): \(name) is not kept")
                }
                for (_, fileName, _) in files where !fileName.isEmpty && !five.contains(where: { $0.1 == fileName }) {
                    #expect(answer.text.contains("chosen before: \(fileName)"), "\(what): the page does not name \(fileName)")
                }
            }
            #expect(try await world.database.outboxItems().isEmpty, "nothing was queued")
            #expect(world.rings.withLock { $0 } == 0)
        }
    }

    /// In the v1.1 dialect (whose media upload X retired) a photo is refused on the page,
    /// naming the key, as `post --photo` refuses it: not queued to fail at its upload.
    @Test func photosInTheV11DialectAreRefusedOnThePageNamingTheKey() async throws {
        let world = try await ReaderHarness()
        world.config.api.dialect = .v1_1
        try await world.withReader(signedIn: false) { reader in
            let browser = try await Browser.signIn(world, reader: reader)
            let line = #"photos: api.dialect is "v1.1", whose media upload X retired; photos need api.dialect "v2""#
            let queued = try await Self.post(browser, Self.form(browser, [("text", "hi")], files: [("photo_1_1", "dot.png", Self.png)]))
            #expect(queued.status == 422)
            #expect(queued.text.contains(#"<p class="message">Not queued: "# + PageEscaping.escape(line) + ".</p>"))
            let checked = try await Self.post(browser, Self.form(browser, [("text", "hi")], files: [("photo_1_1", "dot.png", Self.png)], action: "check"))
            #expect(checked.text.contains(#"<p class="message">Not valid: "# + PageEscaping.escape(line) + ".</p>"))
            #expect(try await world.database.outboxItems().isEmpty)
            // Without a photo v1.1 queues as before.
            let plain = try await Self.post(browser, Self.form(browser, [("text", "plain text")]))
            #expect(plain.status == 303)
            #expect(try await world.database.outboxItems().count == 1)
        }
    }

    @Test func aFormOverTheLimitIsRefusedWithOneLine() async throws {
        #expect(ComposeForm.bodyLimit == 10 * 4 * 5 * 1024 * 1024 + 2 * 1024 * 1024, "the page's 10 parts of 4 photos of 5 MB fit")
        let world = try await ReaderHarness()
        try await world.withReader(signedIn: false, composeLimit: 4_096) { reader in
            let browser = try await Browser.signIn(world, reader: reader)
            let answer = try await Self.post(browser, Self.form(browser, [("text", "hi")], files: [("photo_1_1", "a.png", Self.png + [UInt8](repeating: 0, count: 5_000))]))
            #expect(answer.status == 413)
            #expect(answer.text == "refused: the form is larger than the 4096 bytes this page takes (10 parts of 4 photos of at most 5 MB, and their text)\n")
            let small = try await Self.post(browser, Self.form(browser, [("text", "hi")], files: [("photo_1_1", "a.png", Self.png)]))
            #expect(small.status == 303, "under the limit it is queued")
            // A form without files keeps the urlencoded limit.
            let long = try await browser.post("/compose", [("text", String(repeating: "a", count: 70_000)), ("csrf", browser.csrf)])
            #expect(long.status == 413)
        }
        #expect(try await world.database.outboxItems().count == 1)
    }

    @Test func aFormWithPhotosIsRefusedWithoutItsToken() async throws {
        let world = try await ReaderHarness()
        try await world.withReader(signedIn: false) { reader in
            let browser = try await Browser.signIn(world, reader: reader)
            let other = try await Browser.signIn(world, reader: reader)
            let files = [("photo_1_1", "dot.png", Self.png)]
            let none = Self.body([("text", "no token")], files: files, action: "queue")
            #expect(try await Self.post(browser, none).status == 403, "no token")
            #expect(try await Self.post(browser, Self.form(other, [("text", "another's")], files: files)).status == 403, "another session's token")
            let foreign = ["Cookie": browser.cookie, "Origin": "http://evil.example"]
            #expect(try await Self.post(browser, Self.form(browser, [("text", "foreign")], files: files), headers: foreign).status == 403)
            #expect(try await world.database.outboxItems().isEmpty && world.rings.withLock { $0 } == 0)
            // A malformed body is a 400, not a queued status.
            let broken = try await browser.reader.request("/compose", method: "POST",
                headers: ["Cookie": browser.cookie, "Origin": reader.origin, "Content-Type": "multipart/form-data; boundary=abc"], body: "garbage")
            #expect(broken.status == 400 && broken.text == "the form's multipart body is malformed\n")
        }
    }
}

