import Foundation
import Testing
@testable import TwfeedKit
@testable import TwfeedCore

struct ImageStoreTests {
    @Test func filesAreNamedByTheirHashUnderAFanOutAndWrittenOnce() async throws {
        let fixture = try ImageFixture()
        defer { fixture.remove() }
        let bytes = ImageFixture.png(1)
        let stored = try await fixture.store.put(bytes, format: .png)
        let hash = SHA256.hex(bytes)
        #expect(stored.file == "\(hash.prefix(2))/\(hash.dropFirst(2).prefix(2))/\(hash).png")
        #expect(stored.written)
        let path = try #require(fixture.store.path(of: stored.file))
        #expect(FileManager.default.contents(atPath: path) == Data(bytes))
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o600)
        stat((path as NSString).deletingLastPathComponent, &info)
        #expect(info.st_mode & 0o777 == 0o700)

        // The same bytes again (another author): not written twice.
        let again = try await fixture.store.put(bytes, format: .png)
        #expect(again.file == stored.file && !again.written)
        #expect(fixture.store.scan().files == [stored.file: Int64(bytes.count)])

        fixture.store.remove(stored.file)
        #expect(!fixture.store.exists(stored.file))
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.store.root)/\(hash.prefix(2))"), "empty fan-out folders go too")
    }

    @Test func aStagedFileIsInvisibleUntilInstalled() async throws {
        let fixture = try ImageFixture()
        defer { fixture.remove() }
        let staged = try await fixture.store.stage(ImageFixture.png(5), format: .png)
        #expect(!fixture.store.exists(staged.file))
        #expect(fixture.store.scan().files.isEmpty)
        #expect(fixture.store.scan().temporaries.map(\.pid) == [getpid()])
        #expect(try fixture.store.install(staged))
        #expect(fixture.store.exists(staged.file))
        #expect(fixture.store.scan().temporaries.isEmpty)
        // The same bytes staged again: installing drops the copy.
        let again = try await fixture.store.stage(ImageFixture.png(5), format: .png)
        #expect(try !fixture.store.install(again))
        let dropped = try await fixture.store.stage(ImageFixture.png(6), format: .png)
        fixture.store.discard(dropped)
        #expect(fixture.store.scan().files.count == 1 && fixture.store.scan().temporaries.isEmpty)
    }

    @Test func namesFromTheDatabaseMustHaveTheCachesShape() {
        let store = ImageStore(root: "/tmp/cache")
        let hash = String(repeating: "ab", count: 32)
        #expect(store.path(of: "ab/ab/\(hash).png") == "/tmp/cache/ab/ab/\(hash).png")
        for bad in ["../../etc/passwd", "ab/ab/../../x", "ab/cd/\(hash).png", "ab/ab/\(hash).exe", "ab/ab/\(hash)",
                    "/ab/ab/\(hash).png", "AB/AB/\(hash.uppercased()).png", "ab/ab/\(hash).png/x"] {
            #expect(store.path(of: bad) == nil, "\(bad)")
        }
    }

    @Test func scanSeesOnlyTheCachesOwnFiles() async throws {
        let fixture = try ImageFixture()
        defer { fixture.remove() }
        let stored = try await fixture.store.put(ImageFixture.png(2), format: .gif)
        let root = fixture.store.root
        let leaf = (stored.file as NSString).deletingLastPathComponent
        try Data("left by a killed write".utf8).write(to: URL(fileURLWithPath: "\(root)/\(stored.file).tmp-99999999-12"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(root)/notes.txt"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(root)/\(leaf)/holiday.png"))
        try FileManager.default.createSymbolicLink(atPath: "\(root)/ee", withDestinationPath: "/etc")
        let scan = fixture.store.scan()
        #expect(Array(scan.files.keys) == [stored.file])
        #expect(scan.temporaries.map(\.file) == ["\(stored.file).tmp-99999999-12"])
        #expect(scan.temporaries.map(\.pid) == [99_999_999])
    }
}
