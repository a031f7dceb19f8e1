import Foundation

/// One `--photo FILE[=ALT]` value, and the bytes of the file it names.
///
/// A path may itself contain `=`, so the split is not simply at the first one: the file
/// is the longest part of the value that names an existing file, the whole value or the
/// part before one of its `=` signs, and the alt text is what follows that `=`. So
/// `--photo 'a=b.png=A cat'` attaches `a=b.png` (when it exists) described as "A cat",
/// and `--photo a=b.png` attaches `a=b.png` without alt text. When no part names a file,
/// the file is the part before the first `=` (what a user most likely meant), and reading
/// it fails naming that. An empty alt (`map.png=`) is no alt text.
package struct PhotoArgument: Sendable, Equatable {
    /// The path as given.
    package var path: String
    package var alt: String?

    package init(path: String, alt: String?) {
        self.path = path
        self.alt = alt
    }

    /// `isFile` says whether a path names an existing file (injected by tests).
    package init(_ argument: String, isFile: (String) -> Bool = PhotoArgument.isFile) {
        let cuts = argument.indices.filter { argument[$0] == "=" }
        if isFile(argument) || cuts.isEmpty {
            self.init(path: argument, alt: nil)
            return
        }
        let cut = cuts.reversed().first { isFile(String(argument[..<$0])) } ?? cuts[0]
        let alt = String(argument[argument.index(after: cut)...])
        self.init(path: String(argument[..<cut]), alt: alt.isEmpty ? nil : alt)
    }

    /// The name the photo is queued and uploaded under: the path's last component.
    package var fileName: String { (path as NSString).lastPathComponent }

    package static func isFile(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && !directory.boolValue
    }

    /// Reads the file and checks it (`PhotoValidator`): the photo as it is queued. A
    /// file over the size limit is not read whole. Throws `.invalidData` (65) naming the
    /// path as given.
    package func load() throws -> PhotoDraft {
        let culprit = "photo \(path)"
        var directory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &directory), directory.boolValue {
            throw TwfeedError(.invalidData, "\(culprit): is a directory, not an image")
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw TwfeedError(.invalidData, "\(culprit): cannot read it: \(WholeFile.reason(error))")
        }
        defer { try? handle.close() }
        do {
            let size = Int(try handle.seekToEnd())
            try handle.seek(toOffset: 0)
            if size > PhotoValidator.maxBytes {
                let head = try handle.read(upToCount: 12) ?? Data()
                _ = try PhotoValidator.validate(fileName: path, bytes: head, alt: alt, fileSize: size)
            }
            let bytes = try handle.readToEnd() ?? Data()
            let type = try PhotoValidator.validate(fileName: path, bytes: bytes, alt: alt)
            return PhotoDraft(fileName: fileName, type: type, bytes: bytes, alt: alt)
        } catch let error as TwfeedError {
            throw error
        } catch {
            throw TwfeedError(.invalidData, "\(culprit): cannot read it: \(WholeFile.reason(error))")
        }
    }
}

/// One `thread --photo N:FILE[=ALT]` value: the part (counting from 1) and the photo.
package struct ThreadPhotoArgument: Sendable, Equatable {
    package var part: Int
    package var photo: PhotoArgument

    /// Throws `.usage` (64) when the value does not start with a part number and `:`.
    package init(_ argument: String, isFile: (String) -> Bool = PhotoArgument.isFile) throws {
        guard let colon = argument.firstIndex(of: ":"), argument[..<colon].allSatisfy({ $0.isASCII && $0.isNumber }),
            let part = Int(argument[..<colon]), part >= 1
        else {
            throw TwfeedError(.usage, "--photo \(argument): write N:FILE[=ALT], N the part it goes with (from 1)")
        }
        self.part = part
        self.photo = PhotoArgument(String(argument[argument.index(after: colon)...]), isFile: isFile)
    }
}
