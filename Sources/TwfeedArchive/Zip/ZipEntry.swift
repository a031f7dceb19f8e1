/// One file of a zip, as its central directory describes it.
struct ZipEntry: Sendable, Equatable {
    enum Method: Sendable, Equatable {
        case stored
        case deflated
    }

    /// The path as the zip names it.
    var name: String
    var method: Method
    var compressedSize: Int64
    var uncompressedSize: Int64
    var crc32: UInt32
    var localHeaderOffset: Int64

    var isDirectory: Bool { name.hasSuffix("/") }
}
