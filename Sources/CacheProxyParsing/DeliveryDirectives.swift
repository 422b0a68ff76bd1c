/// The LL-HLS delivery directives a player appends to a playlist URL (`_HLS_msn`, `_HLS_part`,
/// `_HLS_skip`, and any later `_HLS_` parameter), kept as written so that they reach the origin
/// unchanged and in the order the player sent them.
public struct DeliveryDirectives: Sendable, Hashable {
    /// `name=value` pairs joined by `&`, as they are appended to the origin URL's query; empty
    /// when the request carried none.
    public private(set) var query: String = ""
    /// `_HLS_msn` is present: the origin holds the request until that segment (or part) exists.
    public private(set) var isBlocking = false
    /// `_HLS_skip` is present: the origin may answer with a delta update, not a whole playlist.
    public private(set) var asksForDelta = false
    private var count = 0

    /// The most directives one request may carry.
    public static let maximumCount = 8
    /// The longest directive value.
    public static let maximumValueLength = 32

    public init() {}

    public var isEmpty: Bool { query.isEmpty }

    /// Whether `name` is a delivery directive's name (`_HLS_` and at least one more byte).
    static func isDirective(_ name: some Collection<UInt8>) -> Bool {
        name.count > 5 && name.starts(with: "_HLS_".utf8)
    }

    /// Adds a directive from the request's query, validated: names are `_HLS_` and letters,
    /// digits or `_`; `_HLS_msn` and `_HLS_part` are decimal integers, `_HLS_skip` is `YES` or
    /// `v2`; other values are unreserved bytes or percent escapes.
    mutating func append(name: ArraySlice<UInt8>, value: ArraySlice<UInt8>) throws(ParseError) {
        count += 1
        guard count <= Self.maximumCount else { throw ParseError(.tooMany, "more than \(Self.maximumCount) _HLS_ parameters") }
        let nameText = String(decoding: name, as: UTF8.self)
        guard name.dropFirst(5).allSatisfy({ ASCIIScanner.isAlphanumeric($0) || $0 == UInt8(ascii: "_") }) else {
            throw ParseError(.malformed, "bad delivery directive name \(nameText)")
        }
        guard !value.isEmpty, value.count <= Self.maximumValueLength else {
            throw ParseError(.malformed, "\(nameText) needs a value of at most \(Self.maximumValueLength) bytes")
        }
        switch nameText {
        case "_HLS_msn", "_HLS_part":
            guard value.allSatisfy(ASCIIScanner.isDigit) else { throw ParseError(.malformed, "\(nameText) must be a decimal integer") }
            if nameText == "_HLS_msn" { isBlocking = true }
        case "_HLS_skip":
            guard value.elementsEqual("YES".utf8) || value.elementsEqual("v2".utf8) else {
                throw ParseError(.malformed, "_HLS_skip must be YES or v2")
            }
            asksForDelta = true
        default:
            guard value.allSatisfy({ ASCIIScanner.isAlphanumeric($0) || Array("-._~%".utf8).contains($0) }) else {
                throw ParseError(.malformed, "bad value for \(nameText)")
            }
        }
        if !query.isEmpty { query += "&" }
        query += nameText + "=" + String(decoding: value, as: UTF8.self)
    }
}
