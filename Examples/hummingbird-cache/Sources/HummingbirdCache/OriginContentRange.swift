import SparseFile

/// An origin's `Content-Range: bytes first-last/total` (RFC 9110, section 14.4): which bytes a
/// 206 carries, and the resource's length when the origin tells it (`*` when it does not).
///
/// The header is untrusted: anything but that exact shape, positions that do not fit 64 bits,
/// or a range that ends past the total is refused (nil), and the fill fails.
struct OriginContentRange: Hashable, Sendable {
    var range: ByteRange
    var total: UInt64?

    init?(header: String) {
        let bytes = Array(header.utf8)
        let unit = Array("bytes ".utf8)
        guard bytes.count > unit.count, bytes.starts(with: unit),
              let dash = bytes.firstIndex(of: UInt8(ascii: "-")),
              let slash = bytes.firstIndex(of: UInt8(ascii: "/")), dash < slash,
              let first = RequestedRange.position(bytes[unit.count..<dash]),
              let last = RequestedRange.position(bytes[(dash + 1)..<slash]),
              let range = ByteRange(first: first, last: last) else { return nil }
        let totalDigits = bytes[(slash + 1)...]
        if totalDigits.elementsEqual([UInt8(ascii: "*")]) {
            total = nil
        } else {
            guard let total = RequestedRange.position(totalDigits), range.end <= total else { return nil }
            self.total = total
        }
        self.range = range
    }
}
