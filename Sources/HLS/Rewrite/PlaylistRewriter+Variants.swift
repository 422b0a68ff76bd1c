/// What stays of a multivariant playlist: variants as the policy decides, renditions as the kept
/// variants reference them.
extension PlaylistRewriter {
    /// Asks the policy about every variant; a policy that would drop every EXT-X-STREAM-INF
    /// variant keeps the one with the lowest BANDWIDTH instead, so the result stays playable.
    func variantDecisions() -> ([HLSVariantDecision], [Int]) {
        let summaries = playlist.variantSummaries
        var decisions = summaries.map { policy.decision(for: $0) }
        let streams = summaries.indices.filter { !summaries[$0].isIFrameOnly }
        if !streams.isEmpty, streams.allSatisfy({ decisions[$0] == .drop }),
           let lowest = streams.min(by: { summaries[$0].rankedBandwidth < summaries[$1].rankedBandwidth }) {
            decisions[lowest] = .keep
        }
        return (decisions, summaries.map(\.index))
    }

    /// For each EXT-X-MEDIA rendition, whether the policy keeps it (``HLSRewritePolicy/keepsRendition(at:)``)
    /// and, when it drops unreferenced ones, whether a kept variant (of either kind) names its
    /// TYPE and GROUP-ID; nil when every rendition stays. A rendition without TYPE or GROUP-ID
    /// belongs to no group, so no variant references it.
    func renditionsKept(decisions: [HLSVariantDecision]) -> [Bool]? {
        guard !storage.renditions.isEmpty else { return nil }
        let allowed = storage.renditions.indices.map { policy.keepsRendition(at: $0) }
        guard policy.dropsUnreferencedRenditions else { return allowed.allSatisfy { $0 } ? nil : allowed }
        let groupAttributes: [(AttributeName, String)] = [(.audio, "AUDIO"), (.video, "VIDEO"),
                                                          (.subtitles, "SUBTITLES"), (.closedCaptions, "CLOSED-CAPTIONS")]
        var referenced = Set<RenditionGroup>()
        for (index, variant) in storage.variants.enumerated() where decisions[index] != .drop {
            for (name, type) in groupAttributes {
                // CLOSED-CAPTIONS=NONE (unquoted) names no group.
                guard let attribute = playlist.attribute(name, in: variant.tag), attribute.isQuoted else { continue }
                referenced.insert(RenditionGroup(type: type, groupID: playlist.string(attribute.content)))
            }
        }
        return storage.renditions.indices.map { index in
            let record = storage.renditions[index]
            guard allowed[index], let type = playlist.enumerated(record, .type), let groupID = playlist.quoted(record, .groupID)
            else { return false }
            return referenced.contains(RenditionGroup(type: type, groupID: groupID))
        }
    }

    func renditionKept(_ index: Int) -> Bool {
        keptRenditions?[index] ?? true
    }
}

/// A TYPE and GROUP-ID pair: what a variant's AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS names.
struct RenditionGroup: Hashable {
    var type: String
    var groupID: String
}
