#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `Range` request header (RFC 9110 section 14.2), parsed.
///
/// ```swift
/// let request = try RangeRequest(parsing: "bytes=0-1023")
/// if case .single(let specifier) = request, let range = specifier.resolve(length: 4096) { … }
/// ```
///
/// A header that fails to parse is ignored by the proxy (RFC 9110 allows a server to ignore
/// `Range`), and the full representation is served; a valid range that cannot be satisfied
/// gets 416.
public enum RangeRequest: Sendable, Hashable {
    /// One range: answered with 206 and `Content-Range`.
    case single(RangeSpecifier)
    /// Several ranges: the proxy answers with the whole representation (allowed by RFC 9110).
    case multiple([RangeSpecifier])

    /// Parses a header value such as `bytes=0-99`, `bytes=500-`, `bytes=-500` or
    /// `bytes=0-0, -1`.
    ///
    /// - Throws: ``ParseError`` with `ParseError.Code.tooLong` past `limits`,
    ///   `ParseError.Code.unsupported` for a unit other than `bytes`,
    ///   `ParseError.Code.tooMany` for more ranges than allowed, `ParseError.Code.overflow`
    ///   for numbers past 2^64-1, and `ParseError.Code.malformed` for anything else,
    ///   including a last position before the first.
    public init(parsing value: some Collection<UInt8>, limits: RangeRequestLimits = RangeRequestLimits()) throws(ParseError) {
        guard value.count <= limits.maximumLength else {
            throw ParseError(.tooLong, "Range header longer than \(limits.maximumLength) bytes")
        }
        var scanner = ASCIIScanner(Array(value))
        scanner.skipWhitespace()
        guard scanner.consumeCaseInsensitive("bytes") else { throw ParseError(.unsupported, "range unit is not bytes") }
        scanner.skipWhitespace()
        guard scanner.consume(UInt8(ascii: "=")) else { throw ParseError(.malformed, "expected '=' after the range unit") }
        // The first range apart: players send one, and it then costs no array.
        var first: RangeSpecifier?
        var others: [RangeSpecifier] = []
        while true {
            scanner.skipWhitespace()
            // RFC 9110 allows empty list elements ("bytes=0-1,,2-3"); they are skipped.
            if scanner.consume(UInt8(ascii: ",")) { continue }
            if scanner.isAtEnd { break }
            let specifier = try Self.specifier(&scanner)
            if first == nil { first = specifier } else { others.append(specifier) }
            guard others.count < limits.maximumRanges else {
                throw ParseError(.tooMany, "more than \(limits.maximumRanges) ranges")
            }
            scanner.skipWhitespace()
            guard scanner.isAtEnd || scanner.consume(UInt8(ascii: ",")) else {
                throw ParseError(.malformed, "unexpected byte after a range")
            }
        }
        guard let first else { throw ParseError(.malformed, "no range") }
        self = others.isEmpty ? .single(first) : .multiple([first] + others)
    }

    /// Parses a header value given as a string; see ``init(parsing:limits:)-(Collection<UInt8>,_)``.
    public init(parsing value: String, limits: RangeRequestLimits = RangeRequestLimits()) throws(ParseError) {
        // Every ranged hit parses one: the form players send is read in place, the rest by the
        // full parser (which then reads it the same; ParsingTests compares the two).
        if value.utf8.count <= limits.maximumLength, limits.maximumRanges > 0,
           let specifier = value.utf8.withContiguousStorageIfAvailable(Self.playersForm) ?? nil {
            self = .single(specifier)
            return
        }
        try self.init(parsing: Array(value.utf8), limits: limits)
    }

    /// `bytes=first-last` or `bytes=first-` exactly: lower case, no space, numbers of at most 18
    /// digits (they cannot overflow), `last` not before `first`. Nil for anything else.
    private static func playersForm(_ bytes: UnsafeBufferPointer<UInt8>) -> RangeSpecifier? {
        let unit: StaticString = "bytes="
        guard bytes.count > unit.utf8CodeUnitCount, let start = bytes.baseAddress,
              memcmp(start, unit.utf8Start, unit.utf8CodeUnitCount) == 0
        else { return nil }
        var position = unit.utf8CodeUnitCount
        func number() -> UInt64? {
            var value: UInt64 = 0
            let start = position
            while position < bytes.count, position - start < 18, case let digit = bytes[position] &- UInt8(ascii: "0"), digit < 10 {
                value = value * 10 + UInt64(digit)
                position += 1
            }
            return position > start ? value : nil
        }
        guard let first = number(), position < bytes.count, bytes[position] == UInt8(ascii: "-") else { return nil }
        position += 1
        if position == bytes.count { return .from(first: first) }
        guard let last = number(), position == bytes.count, last >= first else { return nil }
        return .closed(first: first, last: last)
    }

    private static func specifier(_ scanner: inout ASCIIScanner) throws(ParseError) -> RangeSpecifier {
        if scanner.consume(UInt8(ascii: "-")) {
            guard let length = try scanner.readNumber() else { throw ParseError(.malformed, "suffix range without a length") }
            return .suffix(length: length)
        }
        guard let first = try scanner.readNumber() else { throw ParseError(.malformed, "range without a first position") }
        guard scanner.consume(UInt8(ascii: "-")) else { throw ParseError(.malformed, "expected '-' in a range") }
        guard let last = try scanner.readNumber() else { return .from(first: first) }
        guard last >= first else { throw ParseError(.malformed, "range \(first)-\(last) ends before it starts") }
        return .closed(first: first, last: last)
    }
}

/// One range of a `Range` header, before the representation's length is known.
public enum RangeSpecifier: Sendable, Hashable {
    /// `bytes=first-last` (both inclusive).
    case closed(first: UInt64, last: UInt64)
    /// `bytes=first-`: from `first` to the end.
    case from(first: UInt64)
    /// `bytes=-length`: the last `length` bytes.
    case suffix(length: UInt64)

    /// The half-open range of bytes `[lower, upper)` this selects in a representation of
    /// `length` bytes, or nil when it is unsatisfiable (RFC 9110 section 14.1.1: a first position
    /// at or past the end, or a suffix of length 0).
    public func resolve(length: UInt64) -> Range<UInt64>? {
        switch self {
        case .closed(let first, let last):
            guard first < length else { return nil }
            return first..<(min(last, length - 1) + 1)
        case .from(let first):
            guard first < length else { return nil }
            return first..<length
        case .suffix(let suffix):
            guard suffix > 0, length > 0 else { return nil }
            return (length - min(suffix, length))..<length
        }
    }
}

/// Bounds on what a `Range` header may cost to parse.
public struct RangeRequestLimits: Sendable, Hashable {
    /// The longest header value accepted. Default 1 KiB.
    public var maximumLength: Int
    /// The most ranges in one header. Default 16 (players send one).
    public var maximumRanges: Int

    public init(maximumLength: Int = 1024, maximumRanges: Int = 16) {
        self.maximumLength = maximumLength
        self.maximumRanges = maximumRanges
    }
}
