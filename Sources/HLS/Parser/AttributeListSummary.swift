/// What the one-pass split of a well-formed attribute list learned, for the tag's own checks:
/// which known names it holds (each once) and which of them have quoted values, as bit sets
/// indexed by ``AttributeName`` raw value. A tag checks its value types against two masks
/// instead of a branch per attribute (whose direction, with the attributes in any order, the
/// processor cannot predict).
struct AttributeListSummary {
    var record: TagRecord
    var names: UInt128
    var quotedNames: UInt128

    @inline(__always)
    func holds(_ name: AttributeName) -> Bool {
        names & name.bit != 0
    }

    /// True when every name of `quoted` it holds is quoted and none of `unquoted` is.
    @inline(__always)
    func quotes(_ quoted: UInt128, andNot unquoted: UInt128) -> Bool {
        (names & quoted & ~quotedNames) | (quotedNames & unquoted) == 0
    }
}

extension AttributeName {
    /// This name's bit in an ``AttributeListSummary`` set.
    @inline(__always)
    var bit: UInt128 { 1 &<< UInt128(rawValue) }

    /// The set of `names`.
    static func set(_ names: AttributeName...) -> UInt128 {
        names.reduce(0) { $0 | $1.bit }
    }
}
