import Foundation

/// Small images built byte by byte: each is what its format's specification calls a
/// whole file, so the validators are tested on files a viewer would open.
enum PhotoFixtures {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0xFF, 0xD9])
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])
    static let webp = Data(Array("RIFF".utf8) + [0x1A, 0, 0, 0] + Array("WEBPVP8L".utf8) + [0x0D, 0, 0, 0, 0x2F, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 0x07, 0])

    /// A 1×1 GIF with `frames` image descriptors; `loop` adds the NETSCAPE2.0 extension
    /// and each frame its graphic control extension, as animation tools write them.
    static func gif(frames: Int, loop: Bool = false, version: String = "GIF89a", trailer: Bool = true) -> Data {
        var bytes = Array(version.utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 0xFF, 0xFF, 0xFF]
        if loop { bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0] }
        for _ in 0..<frames {
            if loop { bytes += [0x21, 0xF9, 4, 0x04, 10, 0, 0, 0] }
            // An image descriptor with a 2-entry local colour table, then its LZW data.
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x80] + [0, 0, 0, 0xFF, 0xFF, 0xFF] + [2, 2, 0x44, 0x01, 0]
        }
        if trailer { bytes += [0x3B] }
        return Data(bytes)
    }
}
