import Foundation

/// A `multipart/form-data` body as a browser writes one for a form with files: text
/// fields, files with their names and types, an empty file input as a part with no
/// name and no bytes.
package struct MultipartBody {
    package let boundary: String
    private var bytes: [UInt8] = []

    package init(boundary: String = "----twfeedFormBoundary\(UUID().uuidString.prefix(8))") {
        self.boundary = boundary
    }

    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    package mutating func field(_ name: String, _ value: String) {
        bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }

    package mutating func file(_ name: String, fileName: String, type: String = "application/octet-stream", _ content: [UInt8]) {
        bytes += Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(fileName)\"\r\nContent-Type: \(type)\r\n\r\n".utf8
        )
        bytes += content
        bytes += Array("\r\n".utf8)
    }

    /// The body, closed.
    package var body: [UInt8] { bytes + Array("--\(boundary)--\r\n".utf8) }
}
