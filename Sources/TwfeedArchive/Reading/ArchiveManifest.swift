import Foundation
import TwfeedCore

/// `manifest.js` (`window.__THAR_CONFIG = {...}`): each data file with its count, which
/// tells a complete archive from a cut one.
struct ArchiveManifest: Sendable {
    /// Entries per data file (`data/tweets.js` → 1234).
    var counts: [String: Int] = [:]

    static func decode(_ data: Data, file: String) throws(ArchiveError) -> ArchiveManifest {
        let assignment = try DataFile.assignment(data, file: file)
        let value: JSONValue
        do {
            value = try JSONValue.parse(data[assignment.value])
        } catch {
            throw ArchiveError(.badData, file: file, "is not JSON (\(error))")
        }
        guard let types = value["dataTypes"]?.object else { throw ArchiveError(.badData, file: file, "has no dataTypes") }
        var manifest = ArchiveManifest()
        for (_, type) in types {
            for listed in type["files"]?.array ?? [] {
                guard let name = listed.text("fileName") else { continue }
                guard let count = listed["count"].flatMap({ $0.idText }).flatMap({ Int($0) }), count >= 0 else {
                    throw ArchiveError(.badData, file: file, "the count of \(name) is not a number")
                }
                manifest.counts[name.hasPrefix("./") ? String(name.dropFirst(2)) : name] = count
            }
        }
        return manifest
    }
}
