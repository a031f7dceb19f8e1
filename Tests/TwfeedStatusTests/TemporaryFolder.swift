import Foundation

/// A folder of one test's own under the temporary directory, made by `mkdtemp` and removed
/// with the suite's instance. This target does not link TwfeedTesting (which brings the
/// daemon and the reader) for its `ScratchFolder`.
final class TemporaryFolder: Sendable {
    let path: String

    init(_ prefix: String) throws {
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-XXXXXX").path.utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
