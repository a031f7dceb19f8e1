import Foundation
import Testing
@testable import TwfeedKit
@testable import TwfeedCore
@testable import TwfeedStore

struct ImageJanitorTests {
    /// Stores a file for each author as the fetcher would, authors used at increasing times.
    func populate(_ fixture: ImageFixture, count: Int, bytes: Int = 1000) async throws -> [String] {
        var files: [String] = []
        for index in 0 ..< count {
            let stored = try await fixture.store.put(ImageFixture.png(index, size: bytes), format: .png)
            let subject = AppDatabase.ImageSubject(
                authorID: UserID(Int64(100 + index)), sourceURL: "https://pbs.twimg.com/\(index)_normal.png", size: "normal",
                url: "https://pbs.twimg.com/\(index)_normal.png", usedAt: fixture.clock.now().addingTimeInterval(Double(index)))
            _ = try await fixture.database.recordImageFetched(subject, file: stored.file, bytes: bytes, etag: "\"\(index)\"",
                                                        lastModified: nil, now: fixture.clock.now())
            files.append(stored.file)
        }
        return files
    }

    @Test func evictsTheLeastRecentlyUsedUntilTheCacheFits() async throws {
        let fixture = try ImageFixture()
        defer { fixture.remove() }
        let files = try await populate(fixture, count: 5)
        let janitor = ImageJanitor(store: fixture.store, database: fixture.database, clock: fixture.clock, capBytes: 2500, logger: fixture.logger)
        let report = try await janitor.sweep()
        #expect(report.evictedFiles == 3)
        #expect(report.evictedBytes == 3000)
        #expect(report.files == 2 && report.bytes == 2000)
        #expect(Set(fixture.store.scan().files.keys) == Set(files.suffix(2)))
        let rows = try await fixture.database.profileImages()
        for row in rows.prefix(3) {
            #expect(row.file == nil && row.etag == nil && row.evictedAt == fixture.clock.now())
        }
        #expect(rows.suffix(2).allSatisfy { $0.file != nil && $0.evictedAt == nil })
        #expect(fixture.sink.events("image.evicted").count == 1)
        #expect(fixture.sink.events("image.evicted")[0].contains("bytes=3000 cache_bytes=2000 cap_bytes=2500 files=3"))
        // Under the cap: a second sweep does nothing.
        #expect(try await janitor.sweep() == ImageJanitor.Report(files: 2, bytes: 2000))
    }

    @Test func aSharedFileIsAsRecentAsItsMostRecentAuthor() async throws {
        let fixture = try ImageFixture()
        defer { fixture.remove() }
        let files = try await populate(fixture, count: 3)
        // Author 200 uses the oldest file, and is the most recent user of all.
        let subject = AppDatabase.ImageSubject(authorID: UserID(200), sourceURL: "https://pbs.twimg.com/x_normal.png", size: "normal",
                                               url: "https://pbs.twimg.com/x_normal.png", usedAt: fixture.clock.now().addingTimeInterval(60))
        _ = try await fixture.database.recordImageFetched(subject, file: files[0], bytes: 1000, etag: nil, lastModified: nil, now: fixture.clock.now())
        #expect(try await fixture.database.imageCacheTotals() == (3, 3000))
        let janitor = ImageJanitor(store: fixture.store, database: fixture.database, clock: fixture.clock, capBytes: 2000, logger: fixture.logger)
        #expect(try await janitor.sweep().evictedFiles == 1)
        #expect(Set(fixture.store.scan().files.keys) == [files[0], files[2]])
    }

    @Test func driftIsRepairedBothWaysAndForeignFilesAreLeftAlone() async throws {
        let fixture = try ImageFixture()
        defer { fixture.remove() }
        let files = try await populate(fixture, count: 3)
        let root = fixture.store.root
        // A row whose file is gone, a file no row names, a killed write's leftover, and
        // files that are none of the cache's business.
        unlink("\(root)/\(files[0])")
        let orphan = try await fixture.store.put(ImageFixture.png(99), format: .png)
        let temporary = "\(files[1]).tmp-99999999-7"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: "\(root)/\(temporary)"))
        let ownTemporary = "\(files[1]).tmp-\(getpid())-8"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: "\(root)/\(ownTemporary)"))
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: "\(root)/README"))
        let fetcherBell = Doorbell()
        let janitor = ImageJanitor(store: fixture.store, database: fixture.database, clock: fixture.clock, capBytes: 1 << 20,
                                   fetcherBell: fetcherBell, logger: fixture.logger)
        let report = try await janitor.sweep()
        #expect(report.missingFiles == 1 && report.orphanFiles == 1 && report.temporaryFiles == 1 && report.evictedFiles == 0)
        #expect(!fixture.store.exists(orphan.file))
        #expect(!FileManager.default.fileExists(atPath: "\(root)/\(temporary)"))
        #expect(FileManager.default.fileExists(atPath: "\(root)/\(ownTemporary)"), "being staged by this very process")
        #expect(FileManager.default.fileExists(atPath: "\(root)/README"))
        let lost = try #require(try await fixture.database.profileImage(UserID(100)))
        #expect(lost.file == nil && lost.etag == nil && lost.fetchedAt == nil && lost.evictedAt == nil, "fetched again at once")
        #expect(fixture.sink.events("image.repaired").first?.contains("missing_files=1 orphan_files=1 temporary_files=1") == true)
        // The fetcher was told.
        await fetcherBell.wait()
    }

    @Test func aLiveWritersTemporaryFileIsKept() async throws {
        let fixture = try ImageFixture()
        defer { fixture.remove() }
        let files = try await populate(fixture, count: 1)
        // pid 1 is alive (and not us): another process may be writing this very file.
        let live = "\(files[0]).tmp-1-5"
        try Data([1]).write(to: URL(fileURLWithPath: "\(fixture.store.root)/\(live)"))
        let janitor = ImageJanitor(store: fixture.store, database: fixture.database, clock: fixture.clock, capBytes: 1 << 20, logger: fixture.logger)
        #expect(try await janitor.sweep().temporaryFiles == 0)
        #expect(FileManager.default.fileExists(atPath: "\(fixture.store.root)/\(live)"))
    }
}
