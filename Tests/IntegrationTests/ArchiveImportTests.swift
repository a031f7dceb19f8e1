import Foundation
import Testing
@testable import TwfeedArchive
import TwfeedBase
@testable import TwfeedCore
@testable import TwfeedStore
import TwfeedTesting

/// Issue 28 end to end, through the real binaries: the emulator writes an archive of its
/// world (`twfeed-emulator --write-archive`), `twfeed import` stores it whole and a second
/// time changes nothing; the made-up archive of each generation imports whole, zipped or
/// not; each bad input of the contract exits 65 with one line naming the file inside the
/// archive and the database's content unchanged.
@Suite(.serialized, .tags(.integration))
struct ArchiveImportTests {
    static var emulator: String { "\(Binary.folder)/twfeed-emulator" }

    /// The made-up archives of TwfeedArchiveTests, one per generation.
    static func fixture(_ name: String) -> String {
        Repository.root().appendingPathComponent("Tests/TwfeedArchiveTests/Fixtures/\(name)").path
    }

    static func writeEmulatorArchive(_ path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: emulator)
        process.arguments = ["--write-archive", path, "--seed", "7"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// The `--json` summary as numbers: posts and likes (new, updated, unchanged), photos.
    struct Summary: Equatable {
        var account: String
        var posts: [Int]
        var likes: [Int]
        var photos: Int
        var ignored: [String]

        init(_ result: Binary.Result, sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            func counts(_ key: String) -> [Int] {
                let counts = object[key] as? [String: Int] ?? [:]
                return [counts["new"] ?? -1, counts["updated"] ?? -1, counts["unchanged"] ?? -1]
            }
            account = object["account"] as? String ?? ""
            posts = counts("posts")
            likes = counts("likes")
            photos = object["photos"] as? Int ?? -1
            ignored = object["ignored"] as? [String] ?? []
        }
    }

    /// Every post and like the library reads from `path`, to compare with what was stored.
    static func read(_ path: String) async throws -> (posts: [Tweet], likes: [ArchivedLike], account: ArchiveAccount) {
        let archive = try ArchiveOpener.openArchive(path: path)
        var posts: [Tweet] = []
        var likes: [ArchivedLike] = []
        try await archive.posts(batchSize: 100) { posts += $0 }
        try await archive.likes(batchSize: 100) { likes += $0 }
        return (posts, likes, archive.account)
    }

    /// Each post as `twfeed show --json` prints it: its whole text and its time are the
    /// archive's.
    static func expectStored(_ posts: [Tweet], in folder: BadInputTests.Folder, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for post in posts {
            let shown = try folder.run(["show", post.id.description, "--json"])
            #expect(shown.status == 0, "\(post.id): \(shown.stderr)", sourceLocation: sourceLocation)
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            let object = try #require(answer["tweet"] as? [String: Any])
            #expect(object["text"] as? String == post.text, "\(post.id)", sourceLocation: sourceLocation)
            #expect(object["createdAt"] as? String == Timestamp.iso8601(post.createdAt), "\(post.id)", sourceLocation: sourceLocation)
        }
    }

    @Test func theEmulatorsArchiveImportsWholeAndASecondImportChangesNothing() async throws {
        let folder = try BadInputTests.Folder()
        let zip = "\(folder.path)/archive.zip"
        try Self.writeEmulatorArchive(zip)
        let archive = try await Self.read(zip)
        #expect(!archive.posts.isEmpty && archive.likes.count == 20)

        // A dry run first: the same counts, nothing stored.
        // Its likes are the emulator's newest home posts, some of them your own: those are
        // already stored (as posts) and gain the tag.
        let ownLikes = Set(archive.likes.map(\.id)).intersection(archive.posts.map(\.id)).count
        let dry = try Summary(try folder.run(["import", zip, "--json", "--dry-run"]))
        #expect(dry.posts == [archive.posts.count, 0, 0] && dry.likes == [20 - ownLikes, ownLikes, 0])
        #expect(!FileManager.default.fileExists(atPath: folder.database))

        let first = try Summary(try folder.run(["import", zip, "--json"]))
        #expect(first.account == "twfeed_demo")
        #expect(first.posts == [archive.posts.count, 0, 0] && first.likes == [20 - ownLikes, ownLikes, 0])
        #expect(first.ignored == ["data/deleted-tweets.js"])
        let second = try Summary(try folder.run(["import", zip, "--json"]))
        #expect(second.posts == [0, 0, archive.posts.count] && second.likes == [0, 0, 20])

        let feed = try folder.run(["feed", "posts", "--json", "--limit", "100000"])
        #expect(feed.status == 0 && feed.stdout.split(separator: "\n").count == archive.posts.count, "\(feed.stderr)")
        try Self.expectStored(Array(archive.posts.prefix(25)), in: folder)
        // A like's time is the one its id encodes.
        let postIDs = Set(archive.posts.map(\.id))
        let like = try #require(archive.likes.first { !postIDs.contains($0.id) })
        let shown = try folder.run(["show", like.id.description, "--json"])
        #expect(shown.stdout.contains(#""createdAt":"\#(Timestamp.iso8601(like.id.snowflakeDate))""#), "\(shown.stdout)")
        // Your posts are signed with the archive's account, not an unknown author.
        let own = try folder.run(["feed", "posts", "--limit", "1", "--json"])
        #expect(own.stdout.contains(#""username":"twfeed_demo""#), "\(own.stdout)")
        // Searchable as soon as the import ends.
        let word = try #require(archive.posts.last?.text.split(separator: " ").first(where: { $0.count > 5 && $0.allSatisfy(\.isLetter) }))
        let search = try folder.run(["search", String(word), "--feed", "posts", "--json"])
        #expect(search.status == 0 && !search.stdout.isEmpty, "\(word): \(search.stderr)")
    }

    @Test(arguments: ["current", "y2020", "y2019"])
    func eachGenerationImportsWholeZippedOrNot(_ generation: String) async throws {
        let path = Self.fixture(generation)
        let archive = try await Self.read(path)
        let folder = try BadInputTests.Folder()
        let summary = try Summary(try folder.run(["import", path, "--json"]))
        #expect(summary.account == archive.account.username)
        #expect(summary.posts == [archive.posts.count, 0, 0] && summary.likes == [archive.likes.count, 0, 0])
        try Self.expectStored(archive.posts, in: folder)
        // The photos of the posts come from the archive's media folder (no download).
        let withPhotos = archive.posts.filter { $0.media.contains { $0.kind == .photo } }
        if generation == "current" { #expect(summary.photos > 0 && !withPhotos.isEmpty) }

        // The same archive zipped: the same posts, nothing new.
        let zip = "\(folder.path)/\(generation).zip"
        try ArchiveWriter.zip(folder: path, to: zip)
        let again = try Summary(try folder.run(["import", zip, "--json"]))
        #expect(again.posts == [0, 0, archive.posts.count] && again.likes == [0, 0, archive.likes.count])
    }

    /// One zip entry per (name, bytes); names as given, `../` and absolute ones included.
    static func zip(_ entries: [(String, Data)], to path: String) throws {
        let writer = try ZipWriter(path: path)
        for (name, data) in entries { try writer.add(name, data, deflate: true) }
        try writer.finish()
    }

    @Test func eachBadInputExits65NamingTheFileAndChangesNothing() async throws {
        let folder = try BadInputTests.Folder()
        let good = "\(folder.path)/archive.zip"
        try Self.writeEmulatorArchive(good)
        _ = try Summary(try folder.run(["import", good, "--json"]))
        let database = try AppDatabase.open(path: folder.database)
        let before = try await ImportCommandTests.content(database)
        let files = ArchiveWriter(account: ArchiveAccount(id: UserID(1), username: "x"), posts: [], likes: []).files()
        let account = try #require(files.first(where: { $0.0.hasSuffix("account.js") }))
        let valid = try Data(contentsOf: URL(fileURLWithPath: good))

        var cases: [(name: String, path: String, file: String)] = []
        func add(_ name: String, _ file: String, _ write: (String) throws -> Void) throws {
            let path = "\(folder.path)/\(name)"
            try write(path)
            cases.append((name, path, file))
        }
        try add("not-a-zip.zip", "not-a-zip.zip") { try Data("hello".utf8).write(to: URL(fileURLWithPath: $0)) }
        try add("truncated.zip", "truncated.zip") { try valid.prefix(valid.count / 2).write(to: URL(fileURLWithPath: $0)) }
        try add("escapes.zip", "data/../../evil.js") {
            try Self.zip([account, ("data/../../evil.js", Data("window.YTD.tweets.part0 = []".utf8))], to: $0)
        }
        try add("absolute.zip", "/etc/evil.js") { try Self.zip([account, ("/etc/evil.js", Data("x".utf8))], to: $0) }
        try add("bomb.zip", "data/tweets.js") {
            let zeros = Data("window.YTD.tweets.part0 = [".utf8) + Data(repeating: 0x20, count: 50_000_000) + Data("]".utf8)
            try Self.zip([account, ("data/tweets.js", zeros)], to: $0)
        }
        try add("javascript.zip", "data/tweets.js") {
            try Self.zip([account, ("data/tweets.js", Data("fetch('https://example.com/'); window.YTD.tweets.part0 = []".utf8))], to: $0)
        }
        for bad in cases {
            for arguments in [["import", bad.path], ["import", bad.path, "--json"]] {
                let result = try folder.run(arguments)
                #expect(result.status == 65, "\(bad.name): \(result.stderr)")
                #expect(result.stdout.isEmpty && result.stderr.split(separator: "\n").count == 1, "\(bad.name): \(result.stderr)")
                #expect(result.stderr.hasPrefix("twfeed: ") && result.stderr.contains(bad.file), "\(bad.name): \(result.stderr)")
            }
        }
        // Another account's archive: refused, naming both.
        let other = try folder.run(["import", Self.fixture("current")])
        #expect(other.status == 65 && other.stderr.contains("twfeed_demo"), "\(other.stderr)")
        #expect(try await ImportCommandTests.content(database) == before)
        #expect(!FileManager.default.fileExists(atPath: "\(folder.path)/evil.js") && !FileManager.default.fileExists(atPath: "/etc/evil.js"))
    }
}
