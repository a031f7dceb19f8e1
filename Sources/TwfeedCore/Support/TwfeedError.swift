/// An error a user can act on: what went wrong, where, and which exit code says so.
///
/// Like NIO's `FileSystemError`, it carries a stable code, a one-line message and the
/// context that names the culprit (a file, a key path, a value); the command line maps
/// the code to an exit status at the edge.
package struct TwfeedError: Error, Sendable, Equatable, CustomStringConvertible {
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        package let name: String
        /// The sysexits(3)-style status the command line exits with.
        package let exitCode: Int32

        package static let usage = Code(name: "usage", exitCode: 64)
        package static let invalidData = Code(name: "invalid-data", exitCode: 65)
        package static let unavailable = Code(name: "unavailable", exitCode: 69)
        package static let io = Code(name: "io", exitCode: 74)
        package static let temporary = Code(name: "temporary", exitCode: 75)
        package static let permission = Code(name: "permission", exitCode: 77)
        package static let configuration = Code(name: "configuration", exitCode: 78)

        package var description: String { name }
    }

    package var code: Code
    /// One line, no secrets; names the file, key or value at fault.
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
