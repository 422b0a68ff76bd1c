/// What happens to a variant.
public enum HLSVariantDecision: Hashable, Sendable {
    case keep
    /// Remove the tag and its URI line.
    case drop
    /// Keep it with this BANDWIDTH value (the attribute is added when missing), written over its
    /// AVERAGE-BANDWIDTH too when it has one, so that players see one figure whichever they read.
    case keepWithBandwidth(UInt64)
}
