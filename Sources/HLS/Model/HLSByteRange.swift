/// A sub-range of a resource, with the implicit offset of EXT-X-BYTERANGE already resolved.
public struct HLSByteRange: Hashable, Sendable, CustomStringConvertible {
    /// Number of bytes.
    public var length: UInt64
    /// Offset of the first byte in the resource.
    public var offset: UInt64

    /// `length` bytes from `offset`.
    public init(length: UInt64, offset: UInt64) {
        self.length = length
        self.offset = offset
    }

    /// The HTTP `Range` header value for these bytes (`bytes=first-last`), or nil when the
    /// range is empty or ends past 2^64-1.
    public var httpRangeHeaderValue: String? {
        guard length > 0 else { return nil }
        let (last, overflow) = offset.addingReportingOverflow(length - 1)
        return overflow ? nil : "bytes=\(offset)-\(last)"
    }

    public var description: String { "\(length)@\(offset)" }
}
