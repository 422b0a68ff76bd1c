/// Choosing one EXT-X-STREAM-INF variant for a quality.
extension HLSQuality {
    /// The EXT-X-STREAM-INF variant this quality names among `variants`, or nil when there is
    /// none (I-frame variants are never chosen).
    ///
    /// The rules, in order:
    /// 1. A variant without BANDWIDTH (which RFC 8216 requires) counts as 0 bits/s, as it does
    ///    when the rewriter keeps the lowest variant of a policy that would drop them all.
    /// 2. With `maximumBandwidth`, variants above it are out. When that leaves none, the
    ///    lowest-bandwidth variant alone remains (the first in playlist order among equals),
    ///    whatever the quality, so a session is never left without a variant.
    /// 3. `.lowest` and `.highest` take the lowest or highest BANDWIDTH.
    /// 4. `.bandwidth(b)` takes the BANDWIDTH closest to `b`; at equal distance (one above,
    ///    one below) the lower bandwidth wins.
    /// 5. `.height(h)` takes the RESOLUTION height closest to `h`; at equal distance the lower
    ///    bandwidth wins. Variants without RESOLUTION rank after every variant with one; among
    ///    themselves (when none has a RESOLUTION) the lowest bandwidth wins.
    /// 6. Any tie left is won by the variant listed first.
    public func select(from variants: some Sequence<HLSVariantSummary>,
                       maximumBandwidth: UInt64? = nil) -> HLSVariantSummary? {
        let streams = variants.filter { !$0.isIFrameOnly }
        var candidates = streams
        if let maximumBandwidth {
            candidates = streams.filter { $0.rankedBandwidth <= maximumBandwidth }
            if candidates.isEmpty {
                return streams.min { $0.rankedBandwidth < $1.rankedBandwidth }
            }
        }
        // `min(by:)` returns the first of equal elements: playlist order breaks the last ties.
        return candidates.min { rank(of: $0).lexicographicallyPrecedes(rank(of: $1)) }
    }

    /// What the variant is compared by, most significant first; lower wins.
    private func rank(of variant: HLSVariantSummary) -> [UInt64] {
        let bandwidth = variant.rankedBandwidth
        switch self {
        case .lowest:
            return [bandwidth]
        case .highest:
            return [UInt64.max - bandwidth]
        case .bandwidth(let target):
            return [Self.distance(bandwidth, target), bandwidth]
        case .height(let target):
            guard let height = variant.resolution?.height else { return [1, 0, bandwidth] }
            return [0, Self.distance(height, UInt64(max(target, 0))), bandwidth]
        }
    }

    private static func distance(_ lhs: UInt64, _ rhs: UInt64) -> UInt64 {
        lhs > rhs ? lhs - rhs : rhs - lhs
    }
}

extension HLSVariantSummary {
    /// BANDWIDTH, or 0 when absent: what selection and the rewriter's fallback compare.
    var rankedBandwidth: UInt64 { bandwidth ?? 0 }
}

extension HLSPlaylist {
    /// The EXT-X-STREAM-INF variant of this multivariant playlist that `quality` names, by the
    /// rules of ``HLSQuality/select(from:maximumBandwidth:)``; nil when the playlist lists none
    /// (a media playlist, or I-frame variants only). Read its URI with
    /// `playlist.variants[summary.index].uri`; lock a rewrite to it with
    /// ``HLSProxyRewritePolicy/lock(to:)``.
    public func variant(for quality: HLSQuality, maximumBandwidth: UInt64? = nil) -> HLSVariantSummary? {
        quality.select(from: variantSummaries, maximumBandwidth: maximumBandwidth)
    }
}
