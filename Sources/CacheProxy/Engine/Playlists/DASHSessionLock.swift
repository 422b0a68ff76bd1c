#if DASH
import DASH
import HLS

/// A DASH session's quality lock: in every Period, each video AdaptationSet keeps one
/// Representation, the one the session's quality names, chosen by exactly the rules an HLS
/// session's variant is chosen by (``HLS/HLSQuality/select(from:maximumBandwidth:)``: bandwidth,
/// then `@height`, the maximum bandwidth respected, the lowest kept when all are above it).
/// Audio and text AdaptationSets are not locked (the session's `maximumBandwidth` still drops
/// their Representations above it); an MPD without a video AdaptationSet has all of its
/// AdaptationSets locked.
struct DASHSessionLock: Sendable {
    /// An AdaptationSet, by its Period's and its own position.
    struct AdaptationSetKey: Hashable, Sendable {
        var period: Int
        var adaptationSet: Int
    }

    /// The locked Representation's position, per locked AdaptationSet.
    let ordinals: [AdaptationSetKey: Int]
    /// The first locked Representation: what the session reports as its quality.
    let reported: DASHRepresentationSummary

    /// The lock `quality` makes on `manifest`; nil when no AdaptationSet lists a Representation.
    init?(manifest: DASHManifest, quality: HLSQuality, maximumBandwidth: UInt64?) {
        let sets = manifest.periods.flatMap(\.adaptationSets).map { $0.representations.map(\.summary) }.filter { !$0.isEmpty }
        let video = sets.filter { $0.contains { $0.contentType == "video" || $0.height != nil } }
        var ordinals: [AdaptationSetKey: Int] = [:]
        var reported: DASHRepresentationSummary?
        for representations in video.isEmpty ? sets : video {
            // HLS's rules, on the Representations seen as variants (their index is their position).
            let variants = representations.enumerated().map { position, summary in
                HLSVariantSummary(index: position, bandwidth: summary.bandwidth,
                                  resolution: summary.height.map { HLSResolution(width: summary.width ?? 0, height: $0) })
            }
            guard let chosen = quality.select(from: variants, maximumBandwidth: maximumBandwidth) else { continue }
            let summary = representations[chosen.index]
            ordinals[AdaptationSetKey(period: summary.period, adaptationSet: summary.adaptationSet)] = summary.ordinal
            if reported == nil { reported = summary }
        }
        guard let reported else { return nil }
        self.ordinals = ordinals
        self.reported = reported
    }

    /// Whether `representation` stays in the MPD served to the session's player.
    func keeps(_ representation: DASHRepresentationSummary) -> Bool {
        let key = AdaptationSetKey(period: representation.period, adaptationSet: representation.adaptationSet)
        return ordinals[key].map { $0 == representation.ordinal } ?? true
    }

    /// The quality a session's state reports.
    var quality: PlaybackSessionStatus.Quality {
        let resolution = reported.height.map { "\(reported.width ?? 0)x\($0)" }
        return PlaybackSessionStatus.Quality(bandwidth: reported.bandwidth, resolution: resolution)
    }
}
#endif
