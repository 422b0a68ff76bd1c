/// A byte range as MPDs write it (`first-last`, both inclusive: `Initialization@range`,
/// `@indexRange`, `SegmentURL@mediaRange`), or as a `sidx` box gives it.
public struct DASHByteRange: Hashable, Sendable, CustomStringConvertible {
    /// Offset of the first byte.
    public var first: UInt64
    /// Offset of the last byte (inclusive).
    public var last: UInt64

    /// A range of the bytes `first...last`; nil when `last < first`.
    public init?(first: UInt64, last: UInt64) {
        guard last >= first else { return nil }
        self.first = first
        self.last = last
    }

    /// Parses `first-last` (decimal, `first <= last`); nil for anything else.
    public init?(_ text: String) {
        let trimmed = XMLNumber.trimmed(text)
        let parts = trimmed.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].hasPrefix("+"), !parts[1].hasPrefix("+"),
              let first = XMLNumber.unsigned(String(parts[0])), let last = XMLNumber.unsigned(String(parts[1]))
        else { return nil }
        self.init(first: first, last: last)
    }

    /// Number of bytes; nil only for the full 2^64-byte range, which no file has.
    public var length: UInt64? {
        let (count, overflow) = (last - first).addingReportingOverflow(1)
        return overflow ? nil : count
    }

    /// The value of an HTTP `Range` header for these bytes: `bytes=first-last`.
    public var httpRangeHeaderValue: String { "bytes=\(first)-\(last)" }

    public var description: String { "\(first)-\(last)" }
}
