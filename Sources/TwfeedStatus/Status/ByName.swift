/// A dictionary keyed by an enum, written to the file keyed by the enum's names. The
/// enum's own keys would encode as an array, or refuse a name this version does not
/// know (another version's feed, source or state): this reads such a file and leaves
/// the unknown names out, and reads a key the file lacks (written before it existed)
/// as empty.
@propertyWrapper
package struct ByName<Key: RawRepresentable & Hashable & Sendable, Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable
where Key.RawValue == String {
    package var wrappedValue: [Key: Value]

    package init(wrappedValue: [Key: Value]) {
        self.wrappedValue = wrappedValue
    }

    package init(from decoder: any Decoder) throws {
        let names = try [String: Value](from: decoder)
        wrappedValue = Dictionary(uniqueKeysWithValues: names.compactMap { name, value in Key(rawValue: name).map { ($0, value) } })
    }

    package func encode(to encoder: any Encoder) throws {
        try [String: Value](uniqueKeysWithValues: wrappedValue.map { ($0.key.rawValue, $0.value) }).encode(to: encoder)
    }
}

extension KeyedDecodingContainer {
    /// What synthesized decoding calls for a `ByName` property: a missing key is empty.
    package func decode<Name, Value>(_ type: ByName<Name, Value>.Type, forKey key: Key) throws -> ByName<Name, Value> {
        try decodeIfPresent(type, forKey: key) ?? ByName(wrappedValue: [:])
    }
}
