import Foundation

/// Opens the archive X sends: its `.zip` (read in place, never unpacked to disk) or the
/// folder it unpacks to, with or without a top-level folder above `data/`.
package enum ArchiveOpener {
    package static func open(path: String, limits: ArchiveLimits = .standard) throws(ArchiveError) -> any ArchiveReading {
        try openArchive(path: path, limits: limits)
    }

    /// The same, as the concrete type (its counts and generation).
    package static func openArchive(path: String, limits: ArchiveLimits = .standard) throws(ArchiveError) -> Archive {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ArchiveError(.unreadable, file: path, "does not exist")
        }
        let source: any ArchiveSource = isFolder.boolValue ? try FolderSource(path: path) : try ZipSource(path: path, limits: limits)
        return try Archive(source: source, path: path)
    }
}
