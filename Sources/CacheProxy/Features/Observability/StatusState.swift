/// The state a status report gives something in (a download, a prefetch job, a playback session,
/// an origin's circuit breaker): one of a closed set of names, encoded in JSON as that name.
///
/// The names are the ones the proxy's HTTP API has always reported; each conforming enum has a
/// case per name and ``unknown(_:)`` for a name this version does not know. A client of a newer
/// proxy (one that reports a state added since) decodes that state as `.unknown(name)` instead of
/// failing to decode the whole report, and encodes it back as the same name: decoding then
/// encoding gives the JSON it read, to the letter.
///
/// `init(rawValue:)` never fails and never gives `.unknown` for a known name, so a value made
/// from a name compares equal to the case of that name. (An `.unknown` made by hand with a known
/// name is not equal to that case, although it encodes the same.)
public protocol StatusState: RawRepresentable<String>, Codable, Hashable, Sendable, CustomStringConvertible {
    /// Every case but ``unknown(_:)``: the states this version knows.
    static var known: [Self] { get }
    /// A state named `name` that this version does not know (one a newer proxy reports).
    static func unknown(_ name: String) -> Self
    /// The state named `rawValue`: its case, or ``unknown(_:)`` when no case has that name.
    init(rawValue: String)
}

extension StatusState {
    public init(rawValue: String) {
        self = Self.known.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }

    /// Decodes the state's name: a name this version does not know decodes as ``unknown(_:)``,
    /// and only a value that is not a string fails.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the state's name, as the proxy's HTTP API reports it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The state's name.
    public var description: String { rawValue }
}
