import Foundation

/// Where an archive's files come from: the zip X sends, read in place, or its unpacked
/// folder. Paths are logical (`data/tweets.js`): a top-level folder above `data/` is
/// already taken off.
protocol ArchiveSource: Sendable {
    /// Every file, by logical path.
    var files: [String: SourceFile] { get }
    func read(_ file: SourceFile) throws(ArchiveError) -> Data
}

/// One file of an archive.
struct SourceFile: Sendable, Equatable {
    /// The path as the archive names it (a zip entry's name, or the path under the folder):
    /// what a message names.
    var name: String
    var size: Int64
    /// The zip entry, nil in a folder.
    var entry: ZipEntry?
}

extension ArchiveSource {
    /// The logical paths, with the prefix above `data/` removed when every file shares it.
    static func logicalFiles(_ files: [SourceFile]) -> [String: SourceFile] {
        let hasData = files.contains { $0.name.hasPrefix("data/") }
        var prefix = ""
        if !hasData, let first = files.first(where: { $0.name.contains("/data/") }) {
            let top = first.name.prefix(while: { $0 != "/" })
            if files.allSatisfy({ $0.name.hasPrefix(top + "/") }) { prefix = top + "/" }
        }
        var result: [String: SourceFile] = [:]
        for file in files { result[String(file.name.dropFirst(prefix.count))] = file }
        return result
    }
}

/// A zip read in place: no entry is ever written to disk.
struct ZipSource: ArchiveSource {
    let directory: ZipDirectory
    let limits: ArchiveLimits
    let files: [String: SourceFile]

    init(path: String, limits: ArchiveLimits) throws(ArchiveError) {
        directory = try ZipDirectory(file: RandomAccessFile(path: path), limits: limits)
        self.limits = limits
        files = Self.logicalFiles(
            directory.entries.map { SourceFile(name: $0.name, size: $0.uncompressedSize, entry: $0) }
        )
    }

    func read(_ file: SourceFile) throws(ArchiveError) -> Data {
        guard let entry = file.entry else { throw ArchiveError(.unreadable, file: file.name, "is not in the zip") }
        return try directory.read(entry, limits: limits)
    }
}

/// An archive already unpacked: files are read from the folder, and a link that leads
/// out of it is refused as a zip's `../` entry is.
struct FolderSource: ArchiveSource {
    let root: URL
    let files: [String: SourceFile]

    init(path: String) throws(ArchiveError) {
        root = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey])
        else { throw ArchiveError(.unreadable, file: path, "cannot be listed") }
        var found: [SourceFile] = []
        for case let url as URL in walker {
            let resolved = url.resolvingSymlinksInPath()
            let name = String(url.standardizedFileURL.path.dropFirst(rootPath.count))
            guard resolved.path.hasPrefix(rootPath) else {
                throw ArchiveError(.unsafePath, file: name, "a link that leads out of the archive")
            }
            let values = try? resolved.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
            guard values?.isRegularFile == true else { continue }
            found.append(SourceFile(name: name, size: Int64(values?.fileSize ?? 0), entry: nil))
        }
        files = Self.logicalFiles(found)
    }

    func read(_ file: SourceFile) throws(ArchiveError) -> Data {
        do {
            return try Data(contentsOf: root.appendingPathComponent(file.name))
        } catch {
            throw ArchiveError(.unreadable, file: file.name, "cannot be read: \(error.localizedDescription)")
        }
    }
}
