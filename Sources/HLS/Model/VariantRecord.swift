/// EXT-X-STREAM-INF with its URI line, or EXT-X-I-FRAME-STREAM-INF with its URI attribute.
struct VariantRecord: Sendable {
    var tag: TagRecord
    /// The URI line (STREAM-INF) or the URI attribute's content (I-FRAME-STREAM-INF).
    var uri: ByteSpan
    var bandwidth: UInt64?
    var averageBandwidth: UInt64?
    var isIFrame: Bool
}
