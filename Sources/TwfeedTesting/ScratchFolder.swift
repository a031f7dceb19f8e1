import Foundation

/// A fresh folder under the temporary directory, removed with its last reference. A
/// suite that is a `final class` holding one (Swift Testing makes an instance per test)
/// leaves nothing behind in /tmp however its tests end.
package final class ScratchFolder: Sendable {
    package let path: String

    package init(prefix: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
