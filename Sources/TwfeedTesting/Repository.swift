import Foundation

/// The checkout the tests run from, for the checks that read it as a whole (the golden
/// files, the docs' paths).
package enum Repository {
    /// The folder holding `Package.swift` above `file` (a test's `#filePath`): found by
    /// walking up, so a test file can move between targets and folders.
    package static func root(from file: String = #filePath) -> URL {
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder.deleteLastPathComponent()
        }
        return folder
    }
}
