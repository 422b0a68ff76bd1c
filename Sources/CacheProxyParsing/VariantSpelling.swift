public import HLS

/// How a request names a variant, the one rule for a session's `quality`, the `variant` of
/// `/prefetch` and `/downloads`, and `sparsecache fetch --variant`: `"lowest"`, `"highest"`, a
/// height such as `"720p"`, or a bandwidth in bits per second.
///
/// A bare number under ``minimumBandwidth`` is refused, with a hint: it almost always means a
/// height (`720` for 720p), and read as bits/s it would silently pick the lowest variant.
public enum VariantSpelling {
    /// The smallest bandwidth a bare number may give, in bits/s (no video variant is this thin).
    public static let minimumBandwidth: UInt64 = 10_000

    /// What a value must be, as errors and help texts say it.
    public static let expected = #""lowest", "highest", a height such as "720p", or a bandwidth in bits/s (10000 or more)"#

    /// Parses a spelling given as text, as the command line takes it (`720p`, `800000`).
    ///
    /// - Throws: `ParseError.Code.malformed` for anything else, with the hint for a small number.
    public static func quality(parsing text: String, name: String = "variant") throws(ParseError) -> HLSQuality {
        if let quality = HLSQuality(jsonString: text) { return quality }
        if !text.isEmpty, text.utf8.count <= 16, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
           let number = Double(text) {
            return try bandwidth(number, name: name)
        }
        throw ParseError(.malformed, "\(name) must be \(expected)")
    }

    /// A session's `quality`, or the `variant` of a prefetch or download, from its JSON value.
    static func quality(_ value: JSONScalar, field: String) throws(ParseError) -> HLSQuality {
        let name = "\"\(field)\""
        do {
            switch value {
            case .text(let text):
                guard let quality = HLSQuality(jsonString: text) else { break }
                return quality
            case .number(let number):
                return try bandwidth(number, name: name)
            }
        } catch {
            throw ParseError(error.code, error.message, field: name)
        }
        throw ParseError(.malformed, "\(name) must be \(expected)", field: name)
    }

    /// A bare number: bits/s, at least ``minimumBandwidth``.
    private static func bandwidth(_ number: Double, name: String) throws(ParseError) -> HLSQuality {
        guard number.isFinite, number.rounded() == number, number >= 1, number <= 1e15 else {
            throw ParseError(.malformed, "\(name) must be \(expected)")
        }
        guard number >= Double(minimumBandwidth) else {
            let shown = Int(number)
            throw ParseError(.malformed, """
                \(name) is \(shown), which as a bandwidth is \(shown) bits/s, thinner than any video: \
                use "\(shown)p" for a resolution, or bits/s (\(minimumBandwidth) or more)
                """)
        }
        return .bandwidth(UInt64(number))
    }
}

extension PrefetchRequest.VariantChoice {
    /// The choice a quality names.
    public init(_ quality: HLSQuality) {
        switch quality {
        case .lowest: self = .lowest
        case .highest: self = .highest
        case .bandwidth(let bitsPerSecond): self = .closest(bitsPerSecond)
        case .height(let height): self = .height(height)
        }
    }
}
