import Foundation
import Testing
import TwfeedCore

/// `--photo FILE[=ALT]` and `--photo N:FILE[=ALT]`: where the file ends and the alt
/// text starts, and what reading the file says.
struct PhotoArgumentTests {
    @Test("the alt text follows the first = when the part before it is the file")
    func plainSplit() {
        let files: Set = ["map.png"]
        #expect(PhotoArgument("map.png=A map of the coast", isFile: files.contains) == PhotoArgument(path: "map.png", alt: "A map of the coast"))
        #expect(PhotoArgument("map.png=x = y", isFile: files.contains) == PhotoArgument(path: "map.png", alt: "x = y"))
        #expect(PhotoArgument("map.png", isFile: files.contains) == PhotoArgument(path: "map.png", alt: nil))
        #expect(PhotoArgument("map.png=", isFile: files.contains) == PhotoArgument(path: "map.png", alt: nil))
    }

    @Test("a path with = in it is the file when it exists, with or without alt text")
    func pathWithEquals() {
        let files: Set = ["a=b.png", "a"]
        #expect(PhotoArgument("a=b.png", isFile: files.contains) == PhotoArgument(path: "a=b.png", alt: nil))
        #expect(PhotoArgument("a=b.png=A cat", isFile: files.contains) == PhotoArgument(path: "a=b.png", alt: "A cat"))
        #expect(PhotoArgument("dir=1/x.png=alt", isFile: ["dir=1/x.png"].contains) == PhotoArgument(path: "dir=1/x.png", alt: "alt"))
    }

    @Test("when nothing exists the file is the part before the first =, so the error names it")
    func nothingExists() {
        #expect(PhotoArgument("mpa.png=A map", isFile: { _ in false }) == PhotoArgument(path: "mpa.png", alt: "A map"))
        #expect(PhotoArgument("mpa.png", isFile: { _ in false }).fileName == "mpa.png")
        #expect(PhotoArgument("/tmp/x/mpa.png=A", isFile: { _ in false }).fileName == "mpa.png")
    }

    @Test("a thread's photo names its part first; anything else is a usage error (64)")
    func threadPhoto() throws {
        let photo = try ThreadPhotoArgument("2:map.png=A map: the coast", isFile: ["map.png"].contains)
        #expect(photo.part == 2)
        #expect(photo.photo == PhotoArgument(path: "map.png", alt: "A map: the coast"))
        for bad in ["map.png", "0:map.png", "+1:map.png", "x:map.png", ":map.png", "-1:map.png"] {
            #expect(throws: TwfeedError(.usage, "--photo \(bad): write N:FILE[=ALT], N the part it goes with (from 1)")) {
                try ThreadPhotoArgument(bad, isFile: { _ in true })
            }
        }
    }

    @Test("loading reads the file and checks it; a missing file, a directory or a non-image is 65 naming it")
    func loading() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-photo-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try PhotoFixtures.png.write(to: URL(fileURLWithPath: "\(folder)/a=b.png"))
        try Data("just text".utf8).write(to: URL(fileURLWithPath: "\(folder)/notes.png"))
        var big = PhotoFixtures.jpeg
        big.append(Data(count: 6 * 1024 * 1024))
        try big.write(to: URL(fileURLWithPath: "\(folder)/big.jpg"))

        let loaded = try PhotoArgument("\(folder)/a=b.png=Alt").load()
        #expect(loaded == PhotoDraft(fileName: "a=b.png", type: .png, bytes: PhotoFixtures.png, alt: "Alt"))
        #expect(throws: TwfeedError(.invalidData, "photo \(folder)/missing.png: cannot read it: No such file or directory")) {
            try PhotoArgument("\(folder)/missing.png=alt").load()
        }
        #expect(throws: TwfeedError(.invalidData, "photo \(folder): is a directory, not an image")) { try PhotoArgument(folder).load() }
        #expect(throws: TwfeedError(.invalidData, "photo \(folder)/notes.png: not a JPEG, PNG, WebP or GIF image")) {
            try PhotoArgument("\(folder)/notes.png").load()
        }
        #expect(throws: TwfeedError(.invalidData, "photo \(folder)/big.jpg: \(big.count) bytes, over the 5 MB limit (5242880 bytes)")) {
            try PhotoArgument("\(folder)/big.jpg").load()
        }
    }
}
