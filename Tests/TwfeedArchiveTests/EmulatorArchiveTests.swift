import Foundation
import Testing
import TwfeedCore

@testable import TwfeedArchive

/// `twfeed-emulator --write-archive` (the built binary, beside this test bundle) writes an
/// archive of today's format that the reader takes whole, zip and folder alike; the same
/// seed writes the same posts (their times and ids follow the emulator's start, as its
/// seeded timelines' do).
@Suite struct EmulatorArchiveTests {
    static var emulator: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent + "/twfeed-emulator"
    }

    func write(_ path: String, seed: Int = 7) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.emulator)
        process.arguments = ["--write-archive", path, "--seed", String(seed)]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func theEmulatorsArchiveIsReadWhole() async throws {
        let scratch = ArchiveFixture.scratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        #expect(try write(scratch + "/a.zip") == 0)
        #expect(try write(scratch + "/folder") == 0)

        let zipped = try ArchiveOpener.openArchive(path: scratch + "/a.zip")
        try await zipped.check()
        #expect(zipped.account.username == "twfeed_demo")
        #expect(zipped.ignoredFiles == ["data/deleted-tweets.js"])
        let (posts, likes) = try await ArchiveFixture.read(zipped)
        #expect(!posts.isEmpty && posts.count == zipped.announcedPosts)
        #expect(likes.count == 20 && likes.allSatisfy { $0.text != nil })
        #expect(posts.allSatisfy { $0.authorID == zipped.account.id && !$0.text.contains("&amp;") })
        #expect(zip(posts, posts.dropFirst()).allSatisfy { $0.createdAt <= $1.createdAt }, "oldest first, as X writes them")
        // Each reply names whom it answers, by id and handle, as X's archive does.
        let replies = posts.filter { $0.inReplyToID != nil }
        #expect(!replies.isEmpty)
        for reply in replies {
            #expect(reply.repliedUser?.id != nil && reply.repliedUser?.username?.isEmpty == false, "\(reply.id) names no user")
        }

        let folder = try ArchiveOpener.openArchive(path: scratch + "/folder")
        let fromFolder = try await ArchiveFixture.read(folder)
        #expect(fromFolder.posts.map(\.text) == posts.map(\.text))
        #expect(fromFolder.likes.map(\.text) == likes.map(\.text))
    }
}
