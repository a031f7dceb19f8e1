import Foundation
import Testing
import TwfeedCore
@testable import TwfeedStore
import TwfeedTesting

/// `post --photo/--at`, `thread` and `delete` as the real binary runs them: each bad
/// input is one line and the contract's exit code with nothing queued (`outbox --json`
/// empty after); what is queued is what `outbox --json` shows.
@Suite(.serialized, .tags(.integration))
struct OutboxCommandTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])
    /// A 1×1 GIF of `frames` frames.
    static func gif(frames: Int) -> Data {
        var bytes = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]
        for _ in 0..<frames { bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0] }
        return Data(bytes + [0x3B])
    }

    /// A folder with a config, a PNG `a.png`, an animated `cat.gif`, a 6 MB `big.jpg`,
    /// a text file `notes.png` and a thread `thread.txt` of three parts.
    final class Folder {
        let base: BadInputTests.Folder
        var path: String { base.path }
        var database: String { base.database }

        init() throws {
            base = try BadInputTests.Folder()
            try OutboxCommandTests.png.write(to: URL(fileURLWithPath: "\(path)/a.png"))
            try OutboxCommandTests.png.write(to: URL(fileURLWithPath: "\(path)/b=c.png"))
            try OutboxCommandTests.gif(frames: 3).write(to: URL(fileURLWithPath: "\(path)/cat.gif"))
            try OutboxCommandTests.gif(frames: 1).write(to: URL(fileURLWithPath: "\(path)/still.gif"))
            try (Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(count: 6 * 1024 * 1024)).write(to: URL(fileURLWithPath: "\(path)/big.jpg"))
            try Data("not a picture".utf8).write(to: URL(fileURLWithPath: "\(path)/notes.png"))
            try "First part.\n\n---\n\nSecond part.\n---\nThird part.\n".write(toFile: "\(path)/thread.txt", atomically: true, encoding: .utf8)
        }

        func run(_ arguments: [String], input: String? = nil) throws -> Binary.Result {
            try Binary.run(arguments.map { $0.replacingOccurrences(of: "DIR", with: path) } + ["--config", base.config], input: input)
        }

        /// `outbox --json`, one object a line.
        func outbox() throws -> [JSONValue] {
            let result = try run(["outbox", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            return try result.stdout.split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }
        }
    }

    // MARK: Bad input: one line, its code, nothing queued

    @Test(arguments: [
        (["post", "hi", "--photo", "DIR/a.png", "--photo", "DIR/a.png", "--photo", "DIR/a.png", "--photo", "DIR/a.png", "--photo", "DIR/a.png"],
         "5 photos; at most 4 on one post (see twfeed --help)", 64),
        (["post", "hi", "--photo", "DIR/notes.png"], "photo DIR/notes.png: not a JPEG, PNG, WebP or GIF image", 65),
        (["post", "hi", "--photo", "DIR/missing.png=A map"], "photo DIR/missing.png: cannot read it: No such file or directory", 65),
        (["post", "hi", "--photo", "DIR/big.jpg"], "photo DIR/big.jpg: 6291460 bytes, over the 5 MB limit (5242880 bytes)", 65),
        (["post", "hi", "--photo", "DIR/cat.gif"], "photo DIR/cat.gif: an animated GIF (3 frames); only a still GIF can be posted", 65),
        (["post", "hi", "--photo", "DIR/a.png=" + String(repeating: "a", count: 1_001)], "photo DIR/a.png: alt text is 1001/1000 characters", 65),
        (["post", "hi", "--at", "2026-12-01T09:00:00"],
         #"--at: "2026-12-01T09:00:00" is not an ISO 8601 time with an offset (e.g. 2026-12-01T09:00:00+01:00) (see twfeed --help)"#, 64),
        (["post", "hi", "--at", "2020-01-01T00:00:00Z"], "--at 2020-01-01T00:00:00Z: HOURS h ago, beyond outbox.maxAgeHours (24.0): it would expire unsent", 65),
        (["post", String(repeating: "x", count: 281), "--photo", "DIR/a.png"], "status is 281/280 characters", 65),
        (["thread", "DIR/thread.txt", "--photo", "4:DIR/a.png"], "--photo 4:DIR/a.png: the thread has 3 parts (see twfeed --help)", 64),
        (["thread", "DIR/thread.txt", "--photo", "map.png"], "--photo map.png: write N:FILE[=ALT], N the part it goes with (from 1) (see twfeed --help)", 64),
        (["thread", "DIR/thread.txt", "--photo", "2:DIR/cat.gif"], "part 2: photo DIR/cat.gif: an animated GIF (3 frames); only a still GIF can be posted", 65),
        (["thread", "DIR/nothing.txt"], "DIR/nothing.txt: cannot read thread file: No such file or directory", 65),
        (["thread", "DIR"], "DIR: cannot read thread file: Is a directory", 65),
        (["delete", "12x"], "delete: 12x is not a tweet id (a positive whole number) (see twfeed --help)", 64),
    ] as [([String], String, Int32)])
    func aBadInputIsOneLineItsCodeAndNothingQueued(arguments: [String], expected: String, code: Int32) throws {
        let folder = try Folder()
        let result = try folder.run(arguments)
        var line = expected.replacingOccurrences(of: "DIR", with: folder.path)
        if line.contains("HOURS"), let hours = result.stderr.split(separator: " ").dropFirst(3).first {
            line = line.replacingOccurrences(of: "HOURS", with: hours)
        }
        BadInputTests.expectOneLine(result, line, exit: code)
        #expect(try folder.outbox().isEmpty)
    }

    @Test func aThreadWithAPartTooLongIsRefusedWholeNamingThePart() throws {
        let folder = try Folder()
        let text = "one\n---\ntwo\n---\n" + String(repeating: "x", count: 301) + "\n---\nfour"
        BadInputTests.expectOneLine(try folder.run(["thread", "-"], input: text), "part 3: status is 301/280 characters", exit: 65)
        BadInputTests.expectOneLine(try folder.run(["thread", "-"], input: "a\n---\n\n---\nc"), "part 2: status is empty", exit: 65)
        #expect(try folder.outbox().isEmpty)
    }

    @Test func photosInTheV11DialectAreAUsageErrorNamingTheKey() throws {
        let folder = try Folder()
        let config = #"{"credentials": "\#(folder.base.credentials)", "storage": {"database": "\#(folder.database)"}, "api": {"dialect": "v1.1", "baseURL": "http://127.0.0.1:1"}}"#
        try config.write(toFile: folder.base.config, atomically: true, encoding: .utf8)
        let line = #"--photo: api.dialect is "v1.1", whose media upload X retired; photos need api.dialect "v2" (see twfeed --help)"#
        BadInputTests.expectOneLine(try folder.run(["post", "hi", "--photo", "DIR/a.png"]), line, exit: 64)
        BadInputTests.expectOneLine(try folder.run(["post", "hi", "--photo", "DIR/a.png", "--dry-run", "--json"]), line, exit: 64)
        BadInputTests.expectOneLine(try folder.run(["thread", "DIR/thread.txt", "--photo", "1:DIR/a.png"]), line, exit: 64)
        #expect(try folder.outbox().isEmpty)
        // Without photos v1.1 posts as before.
        #expect(try folder.run(["post", "plain text"]).status == 0)
    }

    @Test func deletingAPostNotYoursOrStillQueuedIsExit65() async throws {
        let folder = try Folder()
        BadInputTests.expectOneLine(
            try folder.run(["delete", "500"]), "delete 500: no such post of yours is stored (\(folder.database) does not exist yet)", exit: 65)
        let database = try AppDatabase.open(path: folder.database)
        try await database.saveAccount(Account(userID: UserID(42), username: "me"))
        try await database.storeOwnTweet(Tweet(id: TweetID(501), authorID: UserID(7), createdAt: Date(), text: "theirs"), now: Date())
        BadInputTests.expectOneLine(try folder.run(["delete", "501"]), "delete 501: the post is not yours", exit: 65)
        #expect(try folder.run(["post", "still queued"]).status == 0)
        let queued = try folder.outbox()
        let id = try #require(queued.first?["id"]?.string)
        let result = try folder.run(["delete", id])
        #expect(result.status == 65)
        #expect(result.stderr == "twfeed: delete \(id): that is status #\(id), still queued; withdraw it with twfeed outbox cancel \(id)\n")
        #expect(try folder.outbox().count == 1)
    }

    // MARK: What is queued

    @Test func aPostWithPhotosAndATimeIsQueuedAsOutboxShowsIt() throws {
        let folder = try Folder()
        let dry = try folder.run(["post", "two photos", "--photo", "DIR/a.png", "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let estimate = try JSONValue.parse(Data(dry.stdout.utf8))
        #expect(estimate["mediaCostUSD"] == .null)
        #expect(estimate["costUSD"] == .number("0.015"))
        #expect(try folder.outbox().isEmpty)

        let result = try folder.run([
            "post", "two photos", "--photo", "DIR/a.png=A dot = a pixel", "--photo", "DIR/b=c.png", "--photo", "DIR/still.gif=",
            "--at", "2099-12-01T09:00:00+01:00", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let queued = try JSONValue.parse(Data(result.stdout.utf8))
        #expect(queued["notBefore"] == .string("2099-12-01T08:00:00Z"))
        #expect(queued["mediaCostUSD"] == .null)
        let items = try folder.outbox()
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item["kind"] == .string("post"))
        #expect(item["notBefore"] == .string("2099-12-01T08:00:00Z"))
        #expect(item["thread"] == .null)
        #expect(
            item["photos"]
                == .array([
                    .object(["file": .string("a.png"), "alt": .string("A dot = a pixel"), "mediaId": .null]),
                    .object(["file": .string("b=c.png"), "alt": .null, "mediaId": .null]),
                    .object(["file": .string("still.gif"), "alt": .null, "mediaId": .null]),
                ])
        )
        let text = try folder.run(["outbox"])
        #expect(text.stdout.contains("goes out at 2099-12-01T08:00:00Z"), "\(text.stdout)")
        #expect(text.stdout.contains(#"photo a.png (png, 29 bytes) "A dot = a pixel""#), "\(text.stdout)")
    }

    @Test func aThreadIsQueuedWholeWithItsPartsAndPhotos() throws {
        let folder = try Folder()
        let result = try folder.run(["thread", "DIR/thread.txt", "--photo", "2:DIR/a.png=Part two's photo", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let queued = try JSONValue.parse(Data(result.stdout.utf8))
        #expect(queued["costUSD"] == .number("0.045"))
        let items = try folder.outbox()
        #expect(items.map { $0["text"]?.string } == ["First part.", "Second part.", "Third part."])
        let first = try #require(items.first?["id"])
        #expect(items.map { $0["thread"] } == (1...3).map { .object(["id": first, "part": .number(String($0)), "parts": .number("3")]) })
        #expect(items.map { $0["photos"]?.array?.count } == [0, 1, 0])
        #expect(queued["id"] == first)
    }

    /// `--at` is every part's time to send, as the reader's compose gives it: a later
    /// part's expiry counts from it too, so a thread queued further ahead than
    /// `outbox.maxAgeHours` does not lose its later parts to the expiry.
    @Test func aThreadsTimeToSendIsEveryParts() throws {
        let folder = try Folder()
        let result = try folder.run(["thread", "DIR/thread.txt", "--at", "2099-12-01T09:00:00+01:00", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try folder.outbox().map { $0["notBefore"] } == Array(repeating: .string("2099-12-01T08:00:00Z"), count: 3))
    }

    @Test func aDeletionIsQueuedPricedAndItsPostShowsDeletedOnceSent() async throws {
        let folder = try Folder()
        let database = try AppDatabase.open(path: folder.database)
        try await database.saveAccount(Account(userID: UserID(42), username: "me"))
        try await database.storeOwnTweet(Tweet(id: TweetID(500), authorID: UserID(42), createdAt: Date(), text: "an old post"), now: Date())
        let dry = try folder.run(["delete", "500", "--dry-run", "--json"])
        #expect(try JSONValue.parse(Data(dry.stdout.utf8))["costUSD"] == .number("0.01"))
        let result = try folder.run(["delete", "500", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let items = try folder.outbox()
        #expect(items.count == 1)
        #expect(items.first?["kind"] == .string("delete"))
        #expect(items.first?["targetTweetId"] == .string("500"))
        #expect(items.first?["costUSD"] == .number("0.01"))
        BadInputTests.expectOneLine(try folder.run(["delete", "500"]), "delete 500: its deletion is already queued as status #\(items.first?["id"]?.string ?? "")", exit: 65)

        // The daemon's part, done by hand: the post is marked deleted once the deletion went out.
        var shown = try JSONValue.parse(Data(try folder.run(["show", "500", "--json"]).stdout.utf8))
        #expect(shown["tweet"]?["deleted"] == nil)
        try await database.markTweetDeleted(TweetID(500), at: Date())
        let show = try folder.run(["show", "500", "--json"])
        shown = try JSONValue.parse(Data(show.stdout.utf8))
        #expect(shown["tweet"]?["deleted"] == .bool(true), "\(show.stdout)")
        let text = try folder.run(["show", "500"])
        #expect(text.stdout.contains("deleted]"), "\(text.stdout)")
        #expect(text.stdout.contains("(deleted "), "\(text.stdout)")
    }
}
