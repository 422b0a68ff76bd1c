/// What happens to a variant.
public enum HLSVariantDecision: Hashable, Sendable {
    case keep
    /// Remove the tag and its URI line.
    case drop
    /// Keep it with this BANDWIDTH value (the attribute is added when missing).
    case keepWithBandwidth(UInt64)
}
