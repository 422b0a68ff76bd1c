import SparseFile

/// The bytes a client asked for in its `Range` header (RFC 9110, section 14.1.2), of one range.
///
/// A server may ignore a `Range` it does not support and send the whole resource: a header that
/// is not one well-formed `bytes=` range (several ranges, another unit, bad syntax) reads as
/// ``whole``. The header is untrusted: positions are read digit by digit with overflow checks.
enum RequestedRange: Hashable, Sendable {
    /// No usable `Range`: the whole resource, answered with 200.
    case whole
    /// `bytes=first-` or `bytes=first-last` (inclusive positions).
    case from(first: UInt64, last: UInt64?)
    /// `bytes=-length`: the last `length` bytes.
    case suffix(length: UInt64)

    init(header: String?) {
        self = header.flatMap(Self.parse) ?? .whole
    }

    /// The bytes to serve of a resource of `length` bytes; nil when the range is not
    /// satisfiable (416).
    func resolved(length: UInt64) -> ByteRange? {
        switch self {
        case .whole:
            return ByteRange(from: 0, to: length)
        case .from(let first, let last):
            guard first < length else { return nil }
            let end = last.map { $0 < length - 1 ? $0 + 1 : length } ?? length
            return ByteRange(from: first, to: end)
        case .suffix(let count):
            guard count > 0, length > 0 else { return nil }
            return ByteRange(from: length - min(count, length), to: length)
        }
    }

    /// What to fetch first while the resource's length is not known: where the request starts,
    /// up to where it ends (or the end of the resource). A suffix needs the length before it
    /// means anything, so it fetches the first byte, whose answer tells the length.
    var firstFetch: ByteRange? {
        switch self {
        case .whole:
            ByteRange(from: 0, to: .max)
        case .from(let first, let last):
            ByteRange(from: first, to: last.map { $0 == .max ? .max : $0 + 1 } ?? .max)
        case .suffix:
            ByteRange(from: 0, to: 1)
        }
    }

    private static func parse(_ header: String) -> RequestedRange? {
        let bytes = Array(header.utf8)
        let unit = Array("bytes=".utf8)
        guard bytes.count > unit.count,
              zip(bytes, unit).allSatisfy({ lowercased($0) == $1 }) else { return nil }
        let spec = bytes[unit.count...]
        guard let dash = spec.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let firstDigits = spec[spec.startIndex..<dash]
        let lastDigits = spec[(dash + 1)...]
        if firstDigits.isEmpty {
            return position(lastDigits).map { .suffix(length: $0) }
        }
        guard let first = position(firstDigits) else { return nil }
        if lastDigits.isEmpty { return .from(first: first, last: nil) }
        guard let last = position(lastDigits), last >= first else { return nil }
        return .from(first: first, last: last)
    }

    /// A decimal position of at most 19 digits (fits 64 bits), or nil.
    static func position(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(digit - UInt8(ascii: "0"))
        }
        return value
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
