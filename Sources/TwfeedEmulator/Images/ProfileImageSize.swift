/// The size variants of a profile picture, by file-name suffix, as on the real image host:
/// `_normal` (48 px), `_bigger` (73 px), `_mini` (24 px), `_400x400`, and no suffix for the original.
enum ProfileImageSize: String, Sendable, CaseIterable {
    case mini, normal, bigger
    case large = "400x400"
    case original

    var pixels: Int {
        switch self {
        case .mini: 24
        case .normal: 48
        case .bigger: 73
        case .large, .original: 400
        }
    }

    /// `3_normal.png` → (3, .normal); `3.png` → (3, .original).
    static func parse(fileName: String) -> (Int, ProfileImageSize)? {
        guard fileName.hasSuffix(".png") else { return nil }
        let stem = fileName.dropLast(4)
        let parts = stem.split(separator: "_", maxSplits: 1)
        guard let version = Int(parts[0]), version >= 0 else { return nil }
        if parts.count == 1 { return (version, .original) }
        guard let size = ProfileImageSize(rawValue: String(parts[1])), size != .original else { return nil }
        return (version, size)
    }
}
