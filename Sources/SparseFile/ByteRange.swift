/// A non-empty or empty half-open range of byte positions in the original resource.
///
/// SparseCache works in `UInt64` offsets because resources can exceed 4 GiB on 32-bit
/// platforms and because HTTP byte positions are unsigned. A `ByteRange` never overflows:
/// `offset + length` is checked when the range is made.
public struct ByteRange: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The first byte position.
    public let offset: UInt64
    /// The number of bytes.
    public let length: UInt64

    /// Makes a range, or returns nil when `offset + length` does not fit in 64 bits.
    public init?(offset: UInt64, length: UInt64) {
        guard !offset.addingReportingOverflow(length).overflow else { return nil }
        self.offset = offset
        self.length = length
    }

    /// Makes the range `[lowerBound, upperBound)`; returns nil when `upperBound < lowerBound`.
    public init?(from lowerBound: UInt64, to upperBound: UInt64) {
        guard upperBound >= lowerBound else { return nil }
        self.offset = lowerBound
        self.length = upperBound - lowerBound
    }

    /// Makes the range of HTTP's inclusive positions `first...last`.
    public init?(first: UInt64, last: UInt64) {
        guard last >= first, last < UInt64.max else { return nil }
        self.offset = first
        self.length = last - first + 1
    }

    /// One past the last byte position.
    public var end: UInt64 { offset &+ length }

    /// The inclusive last byte position, or nil for an empty range.
    public var last: UInt64? { length == 0 ? nil : end - 1 }

    public var isEmpty: Bool { length == 0 }

    /// Whether the two ranges share at least one byte.
    public func overlaps(_ other: ByteRange) -> Bool {
        offset < other.end && other.offset < end
    }

    /// The bytes both ranges hold, or nil when they share none.
    public func intersection(_ other: ByteRange) -> ByteRange? {
        let lower = max(offset, other.offset)
        let upper = min(end, other.end)
        guard lower < upper else { return nil }
        return ByteRange(from: lower, to: upper)
    }

    public static func < (lhs: ByteRange, rhs: ByteRange) -> Bool {
        (lhs.offset, lhs.length) < (rhs.offset, rhs.length)
    }

    /// HTTP's inclusive notation, `first-last`.
    public var description: String {
        guard let last else { return "\(offset)-(empty)" }
        return "\(offset)-\(last)"
    }
}

extension ByteRange {
    /// Internal convenience for ranges whose bounds are already known not to overflow.
    init(uncheckedFrom lowerBound: UInt64, to upperBound: UInt64) {
        self.offset = lowerBound
        self.length = upperBound - lowerBound
    }
}
