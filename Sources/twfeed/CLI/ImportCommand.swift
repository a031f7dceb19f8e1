import ArgumentParser
import Foundation
import TwfeedArchive
import TwfeedCore
import TwfeedKit
import TwfeedStore

/// `twfeed import PATH`: the archive X sends its users, stored as the feeds `posts` and
/// `likes` (docs/INTERFACE.md, "Your history: the X archive"). The work is
/// `ArchiveImporter`'s; this reads the options and prints.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Imports the archive X sends you (on x.com: Settings, Your account, Download an archive of your data): your posts and likes.",
        discussion: """
            PATH is the archive's .zip or its unpacked folder. Your posts become the feed posts, your likes the feed \
            likes. The archive must be the signed-in account's (or, before sign-in, the database's). \
            Reads nothing from the API and costs nothing. Bad input exits 65 and changes nothing.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The archive: its .zip, or the folder it unpacks to.", completion: .file())
    var path: String

    @Flag(help: "Print one JSON object: {account, posts, likes, photos, ignored, seconds}.")
    var json = false

    @Flag(name: .customLong("dry-run"), help: "Read and check everything, store nothing, print the same summary.")
    var dryRun = false

    func run() async throws {
        let summary = try await CommandLineEdge.run {
            let config = try options.loadConfig()
            let archive: any ArchiveReading
            do {
                archive = try ArchiveOpener.open(path: path)  // the contract's limits: 20 GB, a ratio of 100
            } catch let error as ArchiveError {
                throw TwfeedError(.invalidData, error.description)
            }
            let clock = SystemClock()
            let started = clock.monotonicNow()
            let logger = try LogSetup.fileOnly(config: config.log)
            let bar = isatty(STDERR_FILENO) == 1 ? ImportProgressBar() : nil
            defer { bar?.finish() }
            bar?.show(ImportProgress(phase: .checking, done: 0))
            // Checked whole before the database is opened: bad input leaves it as it was.
            try await ArchiveImporter.check(archive, logger: logger)
            // Another account's archive too, when the credentials say who is signed in: a
            // refused import creates no database. Before sign-in the database's account
            // decides, once it is open (`ArchiveImporter.owner`).
            let signedIn = try ArchiveImporter.signedInAccount(credentials: config.credentials)
            if let signedIn { try ArchiveImporter.requireOwn(archive, expected: signedIn, signedIn: true, logger: logger) }
            // A dry run where no database is yet creates none: an empty one in memory
            // counts every post as new, as the real import would. Not `durable`, as the
            // daemon: an import cut by a power loss is run again, and stores only what
            // is missing, so an fsync per batch would buy nothing.
            let database =
                dryRun && !FileManager.default.fileExists(atPath: config.storage.database)
                ? try AppDatabase.inMemory() : try AppDatabase.open(path: config.storage.database)
            var importer = ArchiveImporter(
                database: database,
                images: ImageStore(root: config.storage.imageCache),
                clock: clock,
                logger: logger
            )
            importer.signedIn = signedIn
            return try await importer.store(archive, dryRun: dryRun, startedAt: started) { bar?.show($0) }
        }
        if json {
            emit(summary.json)
        } else {
            emit(summary.lines.joined(separator: "\n"))
        }
    }
}

/// One line on a terminal's stderr, redrawn in place: the phase and how far it got.
final class ImportProgressBar: Sendable {
    func show(_ progress: ImportProgress) {
        var line = "\r\u{1B}[2K\(progress.phase.rawValue)"
        if let total = progress.total, total > 0 {
            let width = 30
            let filled = min(width, progress.done * width / total)
            line += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] \(progress.done)/\(total)"
        } else if progress.phase != .checking {
            line += " \(progress.done)"
        } else {
            line += "…"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
