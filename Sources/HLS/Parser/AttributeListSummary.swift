/// What the one-pass split of a well-formed attribute list learned, for the tag's own checks:
/// which known names it holds (each once) and which of them have quoted values, as bit sets
/// indexed by ``AttributeName`` raw value (below 64: the split leaves lists with other names
/// to the scanner). A tag checks its value types against two masks
/// instead of a branch per attribute (whose direction, with the attributes in any order, the
/// processor cannot predict).
struct AttributeListSummary {
    var record: TagRecord
    var names: UInt64
    var quotedNames: UInt64

    @inline(__always)
    func holds(_ name: AttributeName) -> Bool {
        names & name.bit != 0
    }

    /// True when every name of `quoted` it holds is quoted and none of `unquoted` is.
    @inline(__always)
    func quotes(_ quoted: UInt64, andNot unquoted: UInt64) -> Bool {
        (names & quoted & ~quotedNames) | (quotedNames & unquoted) == 0
    }
}

extension AttributeName {
    /// This name's bit in an ``AttributeListSummary`` set, for a raw value below 64.
    @inline(__always)
    var bit: UInt64 { 1 &<< UInt64(rawValue) }
}
