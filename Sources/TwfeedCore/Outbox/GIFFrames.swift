/// Counts the frames of a GIF by walking its blocks (GIF89a specification): the header,
/// the logical screen descriptor and its colour table, then extensions and image
/// descriptors up to the trailer. Every image descriptor is a frame, so a GIF with more
/// than one is animated whatever its extensions say (a GIF whose loop extension is
/// missing still shows its frames one after another). Only the block structure is read,
/// never the pixels: enough to tell a still GIF from an animated one without a decoder.
package enum GIFFrames {
    /// What the walk found.
    package enum Count: Equatable, Sendable {
        /// This many image descriptors, each one whole.
        case frames(Int)
        /// The bytes end inside a block, or a block starts with a byte GIF does not
        /// define: a damaged file, which the API would not take either.
        case damaged
    }

    /// The frames of `bytes`, which start with `GIF87a` or `GIF89a` (the caller sniffed
    /// that). A file that ends after whole blocks without its trailer (`;`) is read as
    /// far as it goes: decoders show such files, so they are not refused for it.
    package static func count(_ bytes: [UInt8]) -> Count {
        var index = 6 + 7  // the header, then the logical screen descriptor
        guard bytes.count >= index else { return .damaged }
        let screenFlags = bytes[10]
        if screenFlags & 0x80 != 0 { index += colourTableSize(screenFlags) }
        var frames = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x3B:  // trailer
                return .frames(frames)
            case 0x21:  // extension: introducer, label, then data sub-blocks
                guard let next = skipSubBlocks(bytes, from: index + 2) else { return .damaged }
                index = next
            case 0x2C:  // image descriptor: 9 bytes, an optional local colour table, LZW data
                guard index + 10 <= bytes.count else { return .damaged }
                let flags = bytes[index + 9]
                index += 10
                if flags & 0x80 != 0 { index += colourTableSize(flags) }
                index += 1  // the LZW minimum code size
                guard index <= bytes.count, let next = skipSubBlocks(bytes, from: index) else { return .damaged }
                index = next
                frames += 1
            default:
                return .damaged
            }
        }
        return index == bytes.count ? .frames(frames) : .damaged
    }

    /// A colour table's bytes: three per entry, 2^(N+1) entries for the low three bits N.
    private static func colourTableSize(_ flags: UInt8) -> Int {
        3 << (Int(flags & 0x07) + 1)
    }

    /// The index just past the terminating empty sub-block that follows `start`, or nil
    /// when the bytes end first.
    private static func skipSubBlocks(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            let size = Int(bytes[index])
            index += 1
            if size == 0 { return index }
            index += size
        }
        return nil
    }
}
