/// Which variant of a multivariant playlist to play, in the words of an HTTP request: the
/// lowest or highest, the one closest to a bandwidth, or the one closest to a picture height.
///
/// ``HLSPlaylist/variant(for:maximumBandwidth:)`` picks the variant; ``select(from:maximumBandwidth:)``
/// states every rule, ties included. As JSON (`Codable`), a quality is one of the spellings a
/// session request uses: `"lowest"`, `"highest"`, a number of bits per second, or `"<N>p"`.
public enum HLSQuality: Hashable, Sendable {
    /// The variant with the lowest BANDWIDTH.
    case lowest
    /// The variant with the highest BANDWIDTH.
    case highest
    /// The variant whose BANDWIDTH is closest to this many bits per second.
    case bandwidth(UInt64)
    /// The variant whose RESOLUTION height is closest to this many pixels (`"720p"`).
    case height(Int)

    /// The largest height `"<N>p"` may name.
    public static let maximumHeight = 1_000_000

    /// Parses the string spellings: `lowest`, `highest`, or `<N>p` with N a decimal integer from
    /// 1 to ``maximumHeight`` (`720p`). Exact: no white space, no sign, lower-case only. Nil
    /// for anything else; a bandwidth is a JSON number, not a string.
    public init?(jsonString text: String) {
        switch text {
        case "lowest": self = .lowest
        case "highest": self = .highest
        default:
            let bytes = Array(text.utf8)
            guard bytes.count >= 2, bytes.count <= 8, bytes.last == UInt8(ascii: "p") else { return nil }
            var height = 0
            for byte in bytes.dropLast() {
                guard ASCII.isDigit(byte) else { return nil }
                height = height * 10 + Int(byte - ASCII.zero)
            }
            guard height >= 1, height <= Self.maximumHeight else { return nil }
            self = .height(height)
        }
    }
}

extension HLSQuality: CustomStringConvertible {
    /// The JSON spelling: `lowest`, `highest`, the bandwidth's digits, or `<N>p`.
    public var description: String {
        switch self {
        case .lowest: "lowest"
        case .highest: "highest"
        case .bandwidth(let bitsPerSecond): String(bitsPerSecond)
        case .height(let height): "\(height)p"
        }
    }
}

extension HLSQuality: Codable {
    /// Decodes `"lowest"`, `"highest"`, `"<N>p"` (see ``init(jsonString:)``) or a number of
    /// bits per second above 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let expected = "a quality is \"lowest\", \"highest\", a bandwidth in bits/s or \"<N>p\""
        if let text = try? container.decode(String.self) {
            guard let quality = HLSQuality(jsonString: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: expected)
            }
            self = quality
            return
        }
        guard let bitsPerSecond = try? container.decode(UInt64.self), bitsPerSecond > 0 else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: expected)
        }
        self = .bandwidth(bitsPerSecond)
    }

    /// Encodes the spelling ``init(from:)`` reads: a number for a bandwidth, a string otherwise.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if case .bandwidth(let bitsPerSecond) = self {
            try container.encode(bitsPerSecond)
        } else {
            try container.encode(description)
        }
    }
}
