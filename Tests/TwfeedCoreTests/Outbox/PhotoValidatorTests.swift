import Foundation
import Testing
import TwfeedCore

/// What `post --photo` refuses before anything is queued, and the one line it says.
struct PhotoValidatorTests {
    @Test("JPEG, PNG, WebP and a still GIF pass, their type read from the bytes, whatever the name")
    func theFourTypesPass() throws {
        #expect(try PhotoValidator.validate(fileName: "a.gif", bytes: PhotoFixtures.jpeg, alt: nil) == .jpeg)
        #expect(try PhotoValidator.validate(fileName: "a.jpg", bytes: PhotoFixtures.png, alt: nil) == .png)
        #expect(try PhotoValidator.validate(fileName: "a", bytes: PhotoFixtures.webp, alt: nil) == .webp)
        #expect(try PhotoValidator.validate(fileName: "a.png", bytes: PhotoFixtures.gif(frames: 1), alt: nil) == .gif)
        #expect(try PhotoValidator.validate(fileName: "old.gif", bytes: PhotoFixtures.gif(frames: 1, version: "GIF87a"), alt: nil) == .gif)
    }

    @Test("a file that is no image is refused naming it, exit 65")
    func notAnImage() {
        for bytes in [Data("<html>hello</html>".utf8), Data(), Data(Array("RIFF\0\0\0\0WAVEfmt ".utf8)), Data([0xFF, 0xD8])] {
            #expect(throws: TwfeedError(.invalidData, "photo notes.png: not a JPEG, PNG, WebP or GIF image")) {
                try PhotoValidator.validate(fileName: "notes.png", bytes: bytes, alt: nil)
            }
        }
        #expect(TwfeedError.Code.invalidData.exitCode == 65)
    }

    @Test("an animated GIF is refused with its frame count; a still one with a loop extension passes")
    func animatedGIF() throws {
        #expect(throws: TwfeedError(.invalidData, "photo cat.gif: an animated GIF (3 frames); only a still GIF can be posted")) {
            try PhotoValidator.validate(fileName: "cat.gif", bytes: PhotoFixtures.gif(frames: 3, loop: true), alt: nil)
        }
        // Two frames without any animation extension still show one after the other.
        #expect(throws: TwfeedError(.invalidData, "photo two.gif: an animated GIF (2 frames); only a still GIF can be posted")) {
            try PhotoValidator.validate(fileName: "two.gif", bytes: PhotoFixtures.gif(frames: 2), alt: nil)
        }
        #expect(try PhotoValidator.validate(fileName: "still.gif", bytes: PhotoFixtures.gif(frames: 1, loop: true), alt: nil) == .gif)
        #expect(try PhotoValidator.validate(fileName: "cut.gif", bytes: PhotoFixtures.gif(frames: 1, trailer: false), alt: nil) == .gif)
    }

    @Test("a GIF cut inside a block, or with no frame at all, is refused as damaged")
    func damagedGIF() {
        let whole = PhotoFixtures.gif(frames: 1)
        for bytes in [whole.prefix(whole.count - 3), whole.prefix(8), PhotoFixtures.gif(frames: 0), whole.prefix(whole.count - 1) + Data([0x99])] {
            #expect(throws: TwfeedError(.invalidData, "photo x.gif: a damaged GIF (its blocks end early or make no sense)")) {
                try PhotoValidator.validate(fileName: "x.gif", bytes: Data(bytes), alt: nil)
            }
        }
    }

    @Test("5 MB is 5,242,880 bytes: that many pass, one more is refused")
    func sizeLimit() throws {
        let limit = 5 * 1024 * 1024
        #expect(PhotoValidator.maxBytes == limit)
        var bytes = PhotoFixtures.png
        bytes.append(Data(count: limit - bytes.count))
        #expect(try PhotoValidator.validate(fileName: "big.png", bytes: bytes, alt: nil) == .png)
        bytes.append(0)
        #expect(throws: TwfeedError(.invalidData, "photo big.png: 5242881 bytes, over the 5 MB limit (5242880 bytes)")) {
            try PhotoValidator.validate(fileName: "big.png", bytes: bytes, alt: nil)
        }
        // A file read only in part is judged by its size.
        #expect(throws: TwfeedError(.invalidData, "photo huge.jpg: 9000000 bytes, over the 5 MB limit (5242880 bytes)")) {
            try PhotoValidator.validate(fileName: "huge.jpg", bytes: PhotoFixtures.jpeg, alt: nil, fileSize: 9_000_000)
        }
    }

    @Test("alt text: 1,000 code points pass, 1,001 are refused; an emoji counts its code points")
    func altText() throws {
        #expect(try PhotoValidator.validate(fileName: "a.png", bytes: PhotoFixtures.png, alt: String(repeating: "a", count: 1_000)) == .png)
        #expect(throws: TwfeedError(.invalidData, "photo a.png: alt text is 1001/1000 characters")) {
            try PhotoValidator.validate(fileName: "a.png", bytes: PhotoFixtures.png, alt: String(repeating: "\u{E9}", count: 1_001))
        }
        // 👨‍👩‍👧 is 1 grapheme, 5 code points, 8 UTF-16 units: 200 of them are 1,000 code points.
        let family = "👨‍👩‍👧"
        #expect(try PhotoValidator.validate(fileName: "a.png", bytes: PhotoFixtures.png, alt: String(repeating: family, count: 200)) == .png)
        #expect(throws: TwfeedError(.invalidData, "photo a.png: alt text is 1005/1000 characters")) {
            try PhotoValidator.validate(fileName: "a.png", bytes: PhotoFixtures.png, alt: String(repeating: family, count: 201))
        }
    }

    @Test("more than 4 photos on one post is a usage error (64) naming the part")
    func photoCount() throws {
        try PhotoValidator.checkCount(4)
        #expect(throws: TwfeedError(.usage, "5 photos; at most 4 on one post")) { try PhotoValidator.checkCount(5) }
        #expect(throws: TwfeedError(.usage, "part 2: 6 photos; at most 4 on one post")) { try PhotoValidator.checkCount(6, where: "part 2: ") }
        #expect(TwfeedError.Code.usage.exitCode == 64)
    }
}
