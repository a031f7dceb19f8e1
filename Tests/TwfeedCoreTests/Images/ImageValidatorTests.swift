import Testing
@testable import TwfeedCore

struct ImageValidatorTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16]
    static let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0]
    static let webp: [UInt8] = Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)

    @Test(arguments: [
        ("image/png", png, ImageFormat.png), ("image/jpeg", jpeg, .jpeg), ("IMAGE/JPEG; q=1", jpeg, .jpeg),
        ("image/gif", gif, .gif), ("image/webp", webp, .webp), ("image/png; charset=binary", png, .png),
    ])
    func matchingTypeAndMagicPass(contentType: String, body: [UInt8], format: ImageFormat) throws {
        #expect(try ImageValidator.validate(contentType: contentType, body: body).get() == format)
    }

    @Test func labelsAndBytesMustAgree() {
        #expect(ImageValidator.validate(contentType: "image/png", body: Self.gif) == .failure(.magicMismatch))
        #expect(ImageValidator.validate(contentType: "image/jpeg", body: Self.png) == .failure(.magicMismatch))
        #expect(ImageValidator.validate(contentType: "image/webp", body: Array("RIFF\0\0\0\0WAVE".utf8)) == .failure(.magicMismatch))
        #expect(ImageValidator.validate(contentType: "image/png", body: Array("<html>".utf8)) == .failure(.magicMismatch))
    }

    @Test func otherTypesAreRefusedWhateverTheBytes() {
        #expect(ImageValidator.validate(contentType: "text/html", body: Self.png) == .failure(.contentType))
        #expect(ImageValidator.validate(contentType: "image/svg+xml", body: Array("<svg/>".utf8)) == .failure(.contentType))
        #expect(ImageValidator.validate(contentType: "application/octet-stream", body: Self.png) == .failure(.contentType))
        #expect(ImageValidator.validate(contentType: nil, body: Self.png) == .failure(.contentType))
        #expect(ImageValidator.validate(contentType: "image/png", body: []) == .failure(.empty))
    }
}
