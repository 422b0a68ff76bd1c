/// An optional that JSON writes as `null` when it is absent.
///
/// Swift's synthesized `Encodable` leaves an absent optional's key out; the proxy's JSON
/// documents every key of its objects, and clients (the CLI, scripts, dashboards) read them
/// without checking whether a key exists. Reading, a missing key is nil, as for a plain optional.
@propertyWrapper
public struct EncodedAsNull<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension KeyedDecodingContainer {
    /// What synthesized `Decodable` calls for an ``EncodedAsNull`` property: a missing key is nil
    /// rather than an error, as for a plain optional.
    public func decode<Value>(_ type: EncodedAsNull<Value>.Type, forKey key: Key) throws -> EncodedAsNull<Value> {
        try decodeIfPresent(type, forKey: key) ?? EncodedAsNull(wrappedValue: nil)
    }
}
