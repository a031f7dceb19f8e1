import Foundation
import Logging
import Testing
import TwfeedArchive
@testable import TwfeedCore
@testable import TwfeedKit
@testable import TwfeedStore
import TwfeedTesting

/// Whose archive `twfeed import` takes: the signed-in account's, as the credentials file
/// says, or before sign-in the database's. Another's is refused (65) naming both, and
/// nothing changes.
final class ArchiveImporterAccountTests {
    static let me = ArchiveImporterTests.me
    let folder: ScratchFolder
    let sink = MemorySink()

    init() throws {
        folder = try ScratchFolder(prefix: "twfeed-import-account")
    }

    var credentialsPath: String { "\(folder.path)/credentials.json" }

    func importer(_ database: AppDatabase, signedIn: Account?) -> ArchiveImporter {
        let logger = Logger(label: "import") { [sink] _ in EventLogHandler(level: .debug, format: .logfmt, sink: sink) }
        var importer = ArchiveImporter(
            database: database, images: ImageStore(root: "\(folder.path)/images"), clock: ManualClock(), logger: logger)
        importer.signedIn = signedIn
        return importer
    }

    /// A fresh database, signed in (by the credentials) as alice: bob's archive is
    /// refused naming both, and the database stays empty, its account unknown.
    @Test func anotherAccountThanTheSignedInOneIsRefusedOnAFreshDatabase() async throws {
        let database = try AppDatabase.inMemory()
        let before = try await ArchiveImporterTests.content(database)
        let alice = Account(userID: UserID(7), username: "alice")
        let error = await #expect(throws: TwfeedError.self) {
            try await self.importer(database, signedIn: alice).run(ArchiveImporterTests.archive(), dryRun: false)
        }
        #expect(error?.code.exitCode == 65)
        #expect(error?.message == "data/account.js: the archive is @me's (id 42), but the signed-in account is @alice (id 7)")
        #expect(try await ArchiveImporterTests.content(database) == before)
        #expect(sink.events("import.refused").count == 1)
        // A dry run is refused the same.
        await #expect(throws: TwfeedError.self) {
            try await self.importer(database, signedIn: alice).run(ArchiveImporterTests.archive(), dryRun: true)
        }
    }

    /// Without a recorded name, the signed-in account is named by its id.
    @Test func aSignedInAccountKnownOnlyByItsIdIsNamedByIt() async throws {
        let database = try AppDatabase.inMemory()
        let error = await #expect(throws: TwfeedError.self) {
            try await self.importer(database, signedIn: Account(userID: UserID(7))).run(ArchiveImporterTests.archive(), dryRun: false)
        }
        #expect(error?.message == "data/account.js: the archive is @me's (id 42), but the signed-in account is id 7")
    }

    /// Signed in as the archive's account: imported, on a fresh database and on one that
    /// knew another account (which the signed-in one replaces, as the daemon would).
    @Test func theSignedInAccountsArchiveIsImportedWhateverTheDatabaseKnew() async throws {
        let fresh = try AppDatabase.inMemory()
        let summary = try await importer(fresh, signedIn: Account(userID: Self.me.id)).run(ArchiveImporterTests.archive(), dryRun: false)
        #expect(summary.posts == ArchiveCounts(new: 7))
        #expect(try await fresh.account()?.userID == Self.me.id)

        let earlier = try AppDatabase.inMemory()
        try await earlier.saveAccount(Account(userID: UserID(7), username: "alice"))
        let again = try await importer(earlier, signedIn: Account(userID: Self.me.id, username: "me")).run(ArchiveImporterTests.archive(), dryRun: false)
        #expect(again.posts == ArchiveCounts(new: 7))
        #expect(try await earlier.account()?.userID == Self.me.id)
        #expect(try await earlier.feedStats(.posts).tweets == 7, "the posts are the signed-in account's feed")
    }

    /// Before sign-in the database's account decides, as before: its own archive in,
    /// another's out.
    @Test func beforeSignInTheDatabasesAccountDecides() async throws {
        let database = try AppDatabase.inMemory()
        try await database.saveAccount(Account(userID: UserID(7), username: "alice"))
        let error = await #expect(throws: TwfeedError.self) {
            try await self.importer(database, signedIn: nil).run(ArchiveImporterTests.archive(), dryRun: false)
        }
        #expect(error?.message == "data/account.js: the archive is @me's (id 42), but this database's account is @alice (id 7)")
        let own = ArchiveImporterTests.archive(account: ArchiveAccount(id: UserID(7), username: "alice"))
        #expect(try await importer(database, signedIn: nil).run(own, dryRun: false).posts == ArchiveCounts(new: 7))
    }

    /// The credentials file says who is signed in: the id `login` recorded, else the one
    /// the access token starts with; no file, no token pair or a token of another shape
    /// is "before sign-in".
    @Test func theSignedInAccountComesFromTheCredentialsFile() throws {
        #expect(try ArchiveImporter.signedInAccount(credentials: credentialsPath) == nil, "no file: before sign-in")
        try Credentials(consumerKey: "ck", consumerSecret: "cs").write(to: credentialsPath)
        #expect(try ArchiveImporter.signedInAccount(credentials: credentialsPath) == nil)
        try Credentials(consumerKey: "ck", consumerSecret: "cs", accessToken: "6253282-eWudHldSbIaelX7swmsiHImEL4KinwaGloHANdrY", accessTokenSecret: "s")
            .write(to: credentialsPath)
        #expect(try ArchiveImporter.signedInAccount(credentials: credentialsPath) == Account(userID: UserID(6_253_282)))
        try Credentials(
            consumerKey: "ck", consumerSecret: "cs", accessToken: "6253282-eWud", accessTokenSecret: "s", userID: UserID(42), username: "me"
        ).write(to: credentialsPath)
        #expect(try ArchiveImporter.signedInAccount(credentials: credentialsPath) == Account(userID: UserID(42), username: "me"))
        try Credentials(consumerKey: "ck", consumerSecret: "cs", accessToken: "at", accessTokenSecret: "as").write(to: credentialsPath)
        #expect(try ArchiveImporter.signedInAccount(credentials: credentialsPath) == nil, "a token that does not tell")
        chmod(credentialsPath, 0o644)
        let error = #expect(throws: TwfeedError.self) { try ArchiveImporter.signedInAccount(credentials: self.credentialsPath) }
        #expect(error?.code.exitCode == 77, "a file others can read is refused as everywhere")
    }
}
