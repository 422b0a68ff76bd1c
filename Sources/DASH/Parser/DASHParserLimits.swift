/// Bounds the parser enforces on untrusted input, so that no MPD can make it use memory or time
/// out of proportion to its size. Exceeding one throws `DASHParseError.Code.limitExceeded` (or,
/// for ``maximumSegmentsPerRepresentation``, `DASHAddressingError.Code.limitExceeded`), with
/// the position where it was exceeded.
///
/// The defaults admit every real MPD we know of (a 24-hour SegmentTimeline of 2-second segments
/// written without `@r` is about 43,000 `S` elements and 2 MB) with a wide margin, and keep the
/// parser's memory a small multiple of ``maximumInputBytes``.
public struct DASHParserLimits: Hashable, Sendable {
    /// Largest input accepted, in bytes. Default 64 MiB; never more than `Int32.max`.
    public var maximumInputBytes: Int = 64 << 20
    /// Deepest nesting of elements; the root `MPD` is depth 1. Default 64 (an MPD's own elements
    /// nest at most 7 deep).
    public var maximumDepth: Int = 64
    /// Most attributes on one element, namespace declarations included. Default 128.
    public var maximumAttributesPerElement: Int = 128
    /// Longest element or attribute name, prefix included, in bytes. Default 256.
    public var maximumNameBytes: Int = 256
    /// Longest attribute value, or run of text, comment, CDATA section or processing instruction,
    /// in bytes as written. Default 1 MiB.
    public var maximumValueBytes: Int = 1 << 20
    /// Most elements in the document. Default 2,000,000.
    public var maximumElements: Int = 2_000_000
    /// Most segments that segment addressing lists for one Representation and time range; a
    /// `SegmentTimeline` `@r` or a `@duration` that asks for more is an error with the position
    /// of the element that asked. Default 2,000,000.
    public var maximumSegmentsPerRepresentation: Int = 2_000_000
    /// Most diagnostics kept; later ones are counted but dropped. Default 1,000.
    public var maximumDiagnostics: Int = 1_000

    /// The default limits.
    public init() {}
}
