/// One line of the source, as offsets: what lossless formatting copies, what canonical formatting
/// and the rewriter walk, and what diagnostics number.
struct LineRecord: Sendable {
    enum Kind: UInt8, Sendable {
        case blank
        case comment
        case unknownTag
        case tag
        /// The URI line of a media segment; `item` is the segment index.
        case segmentURI
        /// The URI line after EXT-X-STREAM-INF; `item` is the variant index.
        case variantURI
        /// A URI line that belongs to nothing (no EXTINF or EXT-X-STREAM-INF before it). Players
        /// ignore it, so the rewriter leaves it alone rather than turn junk into a fetchable URL.
        case strayURI
    }

    /// First byte of the line (the BOM, on line 1).
    var start: Int32
    /// First byte after the BOM and leading white space.
    var contentStart: Int32
    /// End of the content: before trailing white space and the line terminator.
    var contentEnd: Int32
    /// First byte of the next line.
    var end: Int32
    var kind: Kind
    /// For `.tag`, which tag.
    var tag: TagName
    /// Index into the list the line feeds (segment, variant, key, map, ...), or -1.
    var item: Int32
    /// The line is already in canonical form and ends in LF (or at the end of the input), so
    /// the canonical writer copies it as is.
    var isCanonical = false

    var content: ByteSpan { ByteSpan(start: contentStart, end: contentEnd) }
}
