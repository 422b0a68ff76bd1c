/// What a private cache acts on in an origin's `Cache-Control` response header (RFC 9111
/// §5.2.2): how long the response stays fresh, and whether it may be stored at all.
///
/// Lenient by design, as caches are: unknown directives are ignored, and a `max-age` that is
/// not a plain number (negative, fractional, quoted garbage, too long) counts as absent, so the
/// caller's default freshness applies. Never traps; reads at most ``maximumBytes`` bytes.
public struct CacheControl: Sendable, Hashable {
    /// `max-age` in seconds: the first well-formed occurrence (RFC 9111 §4.2.1 allows using the
    /// first of several); nil when absent or malformed.
    public var maxAge: UInt64?
    /// `no-store`: the response must not be stored.
    public var noStore = false
    /// `no-cache`: a stored copy must be revalidated before each use.
    public var noCache = false
    /// `private`: only a private cache (one user's) may store the response.
    public var isPrivate = false

    /// The most bytes of header values read; the rest is ignored.
    public static let maximumBytes = 8 * 1024
    /// The longest number accepted as `max-age` or `Age`, in digits (more than a century).
    static let maximumDigits = 10

    public init() {}

    /// Reads the directives of every `Cache-Control` field value of a response.
    public init(parsing values: [String]) {
        var budget = Self.maximumBytes
        var sawMaxAge = false
        for value in values where budget > 0 {
            let bytes = Array(value.utf8.prefix(budget))
            budget -= bytes.count
            for (name, argument) in Self.directives(bytes) {
                switch name {
                case Array("max-age".utf8) where !sawMaxAge:
                    sawMaxAge = true
                    maxAge = argument.flatMap(Self.seconds)
                case Array("no-store".utf8): noStore = true
                case Array("no-cache".utf8): noCache = true
                case Array("private".utf8): isPrivate = true
                default: break
                }
            }
        }
    }

    /// An `Age` header value in seconds (RFC 9111 §5.1); nil when absent or malformed.
    public static func age(parsing value: String?) -> UInt64? {
        value.flatMap { seconds(Array($0.utf8).trimmingOptionalWhitespace) }
    }

    /// A delta-seconds value: digits only, at most ``maximumDigits`` of them.
    static func seconds(_ bytes: [UInt8]) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= maximumDigits, bytes.allSatisfy(ASCIIScanner.isDigit) else { return nil }
        return bytes.reduce(0) { $0 * 10 + UInt64($1 - UInt8(ascii: "0")) }
    }

    /// Splits a directive list into lower-cased names and their arguments (unquoted), commas
    /// inside quoted strings kept.
    private static func directives(_ bytes: [UInt8]) -> [(name: [UInt8], argument: [UInt8]?)] {
        var result: [(name: [UInt8], argument: [UInt8]?)] = []
        var index = 0
        while index < bytes.count {
            var name: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "=") {
                name.append(ASCIIScanner.lowercased(bytes[index]))
                index += 1
            }
            var argument: [UInt8]?
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                var value: [UInt8] = []
                var quoted = false
                while index < bytes.count, quoted || bytes[index] != UInt8(ascii: ",") {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\"") {
                        quoted.toggle()
                    } else if quoted, byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                        index += 1
                        value.append(bytes[index])
                    } else {
                        value.append(byte)
                    }
                    index += 1
                }
                argument = value.trimmingOptionalWhitespace
            }
            index += 1  // the comma
            let trimmed = name.trimmingOptionalWhitespace
            if !trimmed.isEmpty { result.append((trimmed, argument)) }
        }
        return result
    }
}

extension Array where Element == UInt8 {
    /// The bytes without leading and trailing spaces and tabs (RFC 9110 OWS).
    var trimmingOptionalWhitespace: [UInt8] {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return [] }
        return Array(self[first...last])
    }
}
