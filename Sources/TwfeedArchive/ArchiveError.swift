/// Why an archive cannot be imported. The import maps every one to exit 65 (bad data)
/// and one line: the file inside the archive, then the reason.
package struct ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Code: String, Sendable, Equatable {
        /// Neither a zip nor a folder holding `data/`.
        case notAnArchive = "not_an_archive"
        /// The zip ends before its central directory, or an entry before its end.
        case truncated
        /// An entry's path leaves the archive (`../`, absolute).
        case unsafePath = "unsafe_path"
        /// More than the size limit uncompressed, or a compression ratio above the limit.
        case tooLarge = "too_large"
        /// A data file that is not `window.YTD.<name>.partN = [JSON]`, or an entry of it
        /// that is not what the format says.
        case badData = "bad_data"
        /// The file cannot be read (permissions, I/O).
        case unreadable
    }

    package var code: Code
    /// The file inside the archive (`data/tweets.js`), or the archive's own path.
    package var file: String
    package var message: String

    package init(_ code: Code, file: String, _ message: String) {
        self.code = code
        self.file = file
        self.message = message
    }

    package var description: String { "\(file): \(message)" }
}
