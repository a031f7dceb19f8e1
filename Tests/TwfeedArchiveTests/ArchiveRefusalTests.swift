import Foundation
import Testing
import TwfeedCore

@testable import TwfeedArchive

/// Every bad input is refused with its code and the file inside the archive at fault,
/// before anything is stored (`check()`).
@Suite struct ArchiveRefusalTests {
    /// A copy of today's fixture with `change` applied to its folder, zipped.
    func changedArchive(_ scratch: String, _ change: (String) throws -> Void) throws -> String {
        let folder = scratch + "/folder"
        try FileManager.default.copyItem(atPath: ArchiveFixture.folder("current"), toPath: folder)
        try change(folder + "/data")
        try ArchiveWriter.zip(folder: folder, to: scratch + "/archive.zip")
        return scratch + "/archive.zip"
    }

    func refusal(_ path: String, limits: ArchiveLimits = .standard) async -> ArchiveError? {
        await ArchiveFixture.refusal {
            let archive = try ArchiveOpener.open(path: path, limits: limits)
            try await archive.check()
            try await archive.posts(batchSize: 100) { _ in }
        }
    }

    func zipOf(_ scratch: String, _ entries: [(String, Data)], deflate: Bool = true) throws -> String {
        let path = scratch + "/made.zip"
        let writer = try ZipWriter(path: path)
        for (name, data) in entries { try writer.add(name, data, deflate: deflate) }
        try writer.finish()
        return path
    }

    @Test func neitherAZipNorAnArchiveFolder() async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Data("just some text".utf8).write(to: URL(fileURLWithPath: scratch + "/notes.txt"))
        #expect(await refusal(scratch + "/notes.txt") == ArchiveError(.notAnArchive, file: scratch + "/notes.txt", "is neither a zip nor a folder holding data/"))
        #expect(await refusal(scratch)?.code == .notAnArchive, "a folder without data/")
        let noData = try zipOf(scratch, [("readme.txt", Data("hi".utf8))])
        #expect(await refusal(noData)?.code == .notAnArchive)
        #expect(await refusal(scratch + "/missing.zip")?.code == .unreadable)
    }

    @Test func aTruncatedZip() async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = try changedArchive(scratch) { _ in }
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        for keep in [whole.count - 10, whole.count / 2, 100] {
            try whole.prefix(keep).write(to: URL(fileURLWithPath: path))
            let error = await refusal(path)
            #expect(error?.code == .truncated && error?.file == path, "\(keep) bytes kept: \(String(describing: error))")
        }
    }

    @Test(arguments: ["../evil.js", "/etc/passwd", "data\\..\\evil.js", "data/../../evil.js", "C:/evil.js"])
    func anEntryPathThatLeavesTheArchive(_ name: String) async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = try zipOf(scratch, [("data/account.js", Data("window.YTD.account.part0 = []".utf8)), (name, Data("x".utf8))])
        let error = await refusal(path)
        #expect(error?.code == .unsafePath && error?.file == name, "\(String(describing: error))")
    }

    @Test func aBombByRatioByTotalSizeAndByALyingHeader() async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let zeros = Data(count: 4 << 20)
        let account = "window.YTD.account.part0 = [ {\"account\": {\"accountId\": \"1\", \"username\": \"a\"}} ]"
        let bomb = try zipOf(scratch, [("data/account.js", Data(account.utf8)), ("data/tweets.js", zeros)])
        let byRatio = await refusal(bomb)
        #expect(byRatio?.code == .tooLarge && byRatio?.file == "data/tweets.js", "\(String(describing: byRatio))")

        let fixture = try changedArchive(scratch + "/total") { _ in }
        let byTotal = await refusal(fixture, limits: ArchiveLimits(maxTotalBytes: 2_000))
        #expect(byTotal?.code == .tooLarge && byTotal?.file == fixture)

        // The central directory claims 1,000 bytes; the entry inflates to 4 MB all the same.
        var lying = try Data(contentsOf: URL(fileURLWithPath: bomb))
        let directory = Int(lying.suffix(22).dropFirst(16).prefix(4).reversed().reduce(0) { $0 << 8 | Int($1) })
        var at = directory
        for _ in 0..<2 {
            let nameLength = Int(lying[at + 28]) | Int(lying[at + 29]) << 8
            if String(decoding: lying[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self) == "data/tweets.js" {
                lying.replaceSubrange((at + 24)..<(at + 28), with: [0xE8, 0x03, 0, 0])
            }
            at += 46 + nameLength
        }
        try lying.write(to: URL(fileURLWithPath: bomb))
        let byInflating = await refusal(bomb)
        #expect(byInflating?.code == .tooLarge && byInflating?.file == "data/tweets.js", "\(String(describing: byInflating))")
        #expect(byInflating?.message.contains("past its declared") == true)
    }

    @Test(arguments: [
        "alert(1); window.YTD.tweets.part0 = []",
        "window.YTD.tweets.part0 = []; fetch('https://evil.example')",
        "window.YTD.tweets.part0 = {}",
        "window.YTD.tweets.part0 = [ {\"tweet\": {\"id_str\": \"1\"} ",
        "window.YTD.tweets.part0 = [ {}, ]",
        "window.YTD.tweets.part0 = [ 1 ]",
        "window.location = [ ]",
        "window.YTD.tweets.part0 = [ {\"tweet\": {\"id_str\": \"1\", \"created_at\": \"Fri Sep 08 09:00:00 +0000 2023\"}} ]",
        "window.YTD.tweets.part0 = [ {\"tweet\": {\"id_str\": \"x1\", \"full_text\": \"a\", \"created_at\": \"Fri Sep 08 09:00:00 +0000 2023\"}} ]",
        "window.YTD.tweets.part0 = [ {\"tweet\": {\"id_str\": \"1\", \"full_text\": \"a\", \"created_at\": \"yesterday\"}} ]",
        "window.YTD.tweets.part0 = [ {\"tweet\": [ ]} ]",
        "window.YTD.tweets.part0 = [ {\"tweet\": {\"id_str\": \"1\", \"full_text\": \"a\" \"created_at\": \"x\"}} ]",
    ])
    func postsThatAreNotTheFormatsShape(_ text: String) async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = try changedArchive(scratch) { data in
            try Data(text.utf8).write(to: URL(fileURLWithPath: data + "/tweets.js"))
            try FileManager.default.removeItem(atPath: data + "/manifest.js")
        }
        let error = await refusal(path)
        #expect(error?.code == .badData && error?.file == "data/tweets.js", "\(String(describing: error))")
    }

    @Test(arguments: [
        ("like.js", "window.YTD.like.part0 = [ {\"like\": {\"fullText\": \"no id\"}} ]"),
        ("like.js", "window.YTD.like.part0 = [ {\"tweetId\": \"1\"} ]"),
        ("note-tweet.js", "window.YTD.note_tweet.part0 = [ {\"noteTweet\": {\"noteTweetId\": \"1\", \"createdAt\": \"2023-09-08T11:00:00.000Z\"}} ]"),
        ("account.js", "window.YTD.account.part0 = [ {\"account\": {\"username\": \"no_id\"}} ]"),
        ("account.js", "window.YTD.account.part0 = [ ]"),
        ("manifest.js", "window.__THAR_CONFIG = { \"dataTypes\": [ ] }"),
    ])
    func otherFilesThatAreNotTheFormatsShape(_ file: String, _ text: String) async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = try changedArchive(scratch) { data in
            try Data(text.utf8).write(to: URL(fileURLWithPath: data + "/" + file))
            if file != "manifest.js" { try FileManager.default.removeItem(atPath: data + "/manifest.js") }
        }
        let error = await refusal(path)
        #expect(error?.code == .badData && error?.file == "data/" + file, "\(String(describing: error))")
    }

    @Test func aCutArchiveLacksAListedPartOrEntries() async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let missingPart = try changedArchive(scratch + "/a") { data in
            try FileManager.default.removeItem(atPath: data + "/tweets-part1.js")
        }
        let missing = await refusal(missingPart)
        #expect(missing?.code == .badData && missing?.file == "data/tweets-part1.js", "\(String(describing: missing))")

        let fewer = try changedArchive(scratch + "/b") { data in
            try Data("window.YTD.like.part0 = [ {\"like\": {\"tweetId\": \"1650000000000000001\"}} ]".utf8)
                .write(to: URL(fileURLWithPath: data + "/like.js"))
        }
        let cut = await refusal(fewer)
        #expect(cut == ArchiveError(.badData, file: "data/like.js", "holds 1 entries where manifest.js says 3: the archive is cut"))
    }

    /// The files twfeed reads must all be there; one it ignores (DMs, deleted posts) that
    /// the manifest lists may be left out, and is then not named among the ignored.
    @Test(arguments: ["like.js", "note-tweet.js", "tweets.js"])
    func aListedFileTwfeedReadsMustBeThere(_ file: String) async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = try changedArchive(scratch) { data in try FileManager.default.removeItem(atPath: data + "/" + file) }
        let missing = await refusal(path)
        #expect(missing?.code == .badData && missing?.file == "data/" + file, "\(String(describing: missing))")
        #expect(missing?.message.hasSuffix("the archive is cut") == true)
    }

    @Test func aListedFileTwfeedIgnoresMayBeMissing() async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = try changedArchive(scratch) { data in
            let manifest = data + "/manifest.js"
            let text = try String(contentsOfFile: manifest, encoding: .utf8)
            let listed = #""fileName" : "data/direct-messages.js", "globalName" : "YTD.direct_messages.part0", "count" : "0""#
            #expect(text.contains(listed))
            try text.replacingOccurrences(of: listed, with: listed.replacingOccurrences(of: #""count" : "0""#, with: #""count" : "12""#))
                .write(toFile: manifest, atomically: true, encoding: .utf8)
            try FileManager.default.removeItem(atPath: data + "/direct-messages.js")
        }
        #expect(await refusal(path) == nil)
        let archive = try ArchiveOpener.open(path: path)
        #expect(!archive.ignoredFiles.contains("data/direct-messages.js"))
        #expect(archive.ignoredFiles.contains("data/deleted-tweets.js"), "an ignored file that is there is still named")
        let read = try await ArchiveFixture.read(archive)
        #expect(read.posts.count == 10 && read.likes.count == 3)
    }

    @Test func aCorruptEntryFailsItsChecksum() async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let text = "window.YTD.account.part0 = [ {\"account\": {\"accountId\": \"1\", \"username\": \"a\"}} ]"
        let path = try zipOf(scratch, [("data/account.js", Data(text.utf8))], deflate: false)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let at = 30 + "data/account.js".utf8.count + text.utf8.count - 8
        bytes[at] = UInt8(ascii: "X")
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = await refusal(path)
        #expect(error?.code == .badData && error?.file == "data/account.js", "\(String(describing: error))")
    }
}
