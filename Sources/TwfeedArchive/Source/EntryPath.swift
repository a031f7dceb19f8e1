/// An entry's path inside the archive, checked before anything is read: twfeed never
/// writes an entry to disk, but a path that leaves the archive marks a crafted file, and
/// it is refused whole rather than half read.
enum EntryPath {
    /// Nil when `name` is safe; else why not.
    static func problem(_ name: String) -> String? {
        if name.isEmpty { return "an entry has an empty name" }
        if name.hasPrefix("/") { return "the entry's path is absolute" }
        if name.contains("\\") { return "the entry's path holds a backslash" }
        if name.utf8.contains(0) { return "the entry's path holds a NUL byte" }
        let first = name.split(separator: "/", omittingEmptySubsequences: false).first ?? ""
        if first.count == 2, first.last == ":", first.first?.isLetter == true { return "the entry's path names a drive" }
        for part in name.split(separator: "/", omittingEmptySubsequences: false) where part == ".." {
            return "the entry's path leaves the archive (..)"
        }
        return nil
    }
}
