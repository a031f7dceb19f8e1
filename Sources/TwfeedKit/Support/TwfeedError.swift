/// An error a user can act on: what went wrong, where, and which exit code says so.
///
/// Like NIO's `FileSystemError`, it carries a stable code, a one-line message and the
/// context that names the culprit (a file, a key path, a value); the command line maps
/// the code to an exit status at the edge.
public struct TwfeedError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        /// The sysexits(3)-style status the command line exits with.
        public let exitCode: Int32

        public static let usage = Code(name: "usage", exitCode: 64)
        public static let invalidData = Code(name: "invalid-data", exitCode: 65)
        public static let unavailable = Code(name: "unavailable", exitCode: 69)
        public static let io = Code(name: "io", exitCode: 74)
        public static let temporary = Code(name: "temporary", exitCode: 75)
        public static let permission = Code(name: "permission", exitCode: 77)
        public static let configuration = Code(name: "configuration", exitCode: 78)

        public var description: String { name }
    }

    public var code: Code
    /// One line, no secrets; names the file, key or value at fault.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
