extension Dictionary where Key: RawRepresentable, Key.RawValue == String {
    /// The entries whose names this version knows, from a file keyed by name. A
    /// dictionary keyed by the enum itself would encode as an array, or refuse a name it
    /// does not know (another version's feed, source or state): this reads it, and
    /// leaves the unknown names out.
    init(names: [String: Value]) {
        self.init(uniqueKeysWithValues: names.compactMap { name, value in Key(rawValue: name).map { ($0, value) } })
    }

    /// The file's form: keyed by the name, as the snapshot has always been written.
    var names: [String: Value] {
        [String: Value](uniqueKeysWithValues: map { ($0.key.rawValue, $0.value) })
    }
}
