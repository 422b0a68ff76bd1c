/// A page of `GET /entries?offset=N&limit=M`: which entries of the store, most recently used
/// first, to list. Both parameters are optional decimal numbers; anything else is refused.
public struct EntriesPageRequest: Sendable, Hashable {
    /// Entries skipped from the start of the list.
    public var offset: Int
    /// Entries listed at most.
    public var limit: Int

    /// The page size when `limit` is not given.
    public static let defaultLimit = 100
    /// The largest page.
    public static let maximumLimit = 1000

    public init(offset: Int = 0, limit: Int = EntriesPageRequest.defaultLimit) {
        self.offset = offset
        self.limit = limit
    }

    /// Parses the query of `/entries` (the bytes after `?`).
    ///
    /// - Throws: ``ParseError``: `ParseError.Code.malformed` for a value that is not a
    ///   number in range, `ParseError.Code.unsupported` for another parameter.
    public init(query: some Collection<UInt8>) throws(ParseError) {
        self.init()
        for parameter in Array(query).split(separator: UInt8(ascii: "&")) {
            let equals = parameter.firstIndex(of: UInt8(ascii: "=")) ?? parameter.endIndex
            let name = String(decoding: parameter[..<equals], as: UTF8.self)
            let value = parameter[min(equals + 1, parameter.endIndex)...]
            switch name {
            case "offset": offset = try Self.number(value, name: name, in: 0...Int(Int32.max))
            case "limit": limit = try Self.number(value, name: name, in: 1...Self.maximumLimit)
            default:
                throw ParseError(.unsupported, "unknown parameter \"\(name.prefix(40))\": /entries takes offset and limit")
            }
        }
    }

    private static func number(_ digits: ArraySlice<UInt8>, name: String, in range: ClosedRange<Int>) throws(ParseError) -> Int {
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ ASCIIScanner.isDigit($0) }),
              let value = Int(String(decoding: digits, as: UTF8.self)), range.contains(value) else {
            throw ParseError(.malformed, "\(name) must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
