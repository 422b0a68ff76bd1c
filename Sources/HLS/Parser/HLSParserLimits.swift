/// Bounds the parser enforces on untrusted input, so that no playlist can make it use memory or
/// time out of proportion to its size. Exceeding one throws `HLSParseError.Code.limitExceeded`.
///
/// The defaults admit every real playlist we know of (a 24-hour live window at 2-second segments
/// is about 43,000 segments and 4 MB) with a wide margin, and keep worst-case memory a small
/// multiple of ``maximumInputBytes``.
public struct HLSParserLimits: Hashable, Sendable {
    /// Largest input accepted, in bytes. Default 64 MiB; never more than `Int32.max`.
    public var maximumInputBytes: Int = 64 << 20
    /// Longest line, in bytes, not counting its terminator. Default 64 KiB.
    public var maximumLineBytes: Int = 64 << 10
    /// Most attributes in one tag's attribute list. Default 256.
    public var maximumAttributesPerTag: Int = 256
    /// Most media segments. Default 2,000,000.
    public var maximumSegments: Int = 2_000_000
    /// Most entries of any other list: parts, variants, renditions, keys, date ranges. Default 2,000,000.
    public var maximumEntriesPerList: Int = 2_000_000
    /// Most EXT-X-KEY tags in force for one segment (one per KEYFORMAT). Default 32.
    public var maximumKeysInForce: Int = 32
    /// Most EXT-X-DEFINE tags. Default 1,000.
    public var maximumVariables: Int = 1_000
    /// Most bytes that variable substitution may produce over the whole playlist, counting each
    /// reference once per use. Default 16 MiB.
    public var maximumSubstitutionBytes: Int = 16 << 20
    /// Most diagnostics kept; later ones are counted but dropped. Default 1,000.
    public var maximumDiagnostics: Int = 1_000

    /// The default limits.
    public init() {}
}
