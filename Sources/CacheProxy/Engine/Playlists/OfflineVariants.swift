import CacheProxyParsing
import CacheStore
import HLS

/// What a multivariant playlist served from the cache lists while its origin cannot be reached:
/// only the variants (and EXT-X-MEDIA renditions) a player can start from the cache, so that no
/// player picks, or switches to, one whose every request would fail. A variant or rendition can
/// start when its media playlist is cached whole and so is its first segment (with that
/// segment's init section); a variant also needs a startable rendition of the AUDIO group it
/// names. When none qualifies the playlist is served unchanged: a list with nothing playable
/// helps no one.
///
/// "Cannot be reached" is what the proxy knows: the origin's last request failed to connect or
/// timed out and none answered since (its circuit breaker counts failures, or is open). A 404
/// says nothing about reachability. A cached copy that is stale is being revalidated; when it
/// lists something that cannot start, its answer waits for that revalidation for up to
/// ``revalidationWait``, so that the first request after the origin went away (a restart
/// offline) already gets the short list: an origin that is down fails at once (refused, no
/// route, no name), one that is up answers in a round trip.
struct OfflineVariants {
    let environment: FetchEnvironment

    /// The longest a stale copy's answer waits to learn whether the origin can be reached.
    static let revalidationWait: Duration = .milliseconds(250)

    /// Restricts `policy` to what can start from the cache when `loaded` is a multivariant
    /// playlist served from the cache and its origin cannot be reached (on `/proxy?url=` and a
    /// session's playlist alike); leaves it as it is otherwise. Logs, once per playlist until
    /// the origin answers again, what it dropped.
    func restrict(_ policy: inout HLSProxyRewritePolicy, loaded: PlaylistLoader.Loaded, origin: OriginURL) async {
        guard loaded.source != .origin, let playlist = loaded.playlist, playlist.kind == .master,
              let base = HLSBaseURL(loaded.url) else { return }
        let key = environment.store.key(for: origin.string)
        // The common case, an origin that answers and no revalidation to wait for, costs no look
        // at the cached media playlists.
        guard environment.upstream.breakers.hasFailedSinceLastAnswer(origin.authority) || environment.playlistFreshness.isRevalidating(key) else {
            return
        }
        let selection = startable(in: playlist, base: base)
        guard !selection.isComplete, selection.hasVariants, await originUnreachable(origin) else { return }
        let (variants, iFrames, renditions) = (selection.variants, selection.iFrameVariants, selection.renditions)
        // On top of what the policy already drops (a session's cap), never instead of it.
        let (keptVariant, keptRendition) = (policy.keepVariant, policy.keepRendition)
        policy.keepVariant = { summary in
            (keptVariant?(summary) ?? true) && (summary.isIFrameOnly ? iFrames.contains(summary.index) : variants.contains(summary.index))
        }
        policy.keepRendition = { (keptRendition?($0) ?? true) && renditions.contains($0) }
        policy.dropsUnreferencedRenditions = true
        if environment.playlistFreshness.shouldLogOfflineListing(key) {
            environment.logger.notice(
                "the origin is unreachable: a cached multivariant playlist lists only the variants that can play from the cache",
                metadata: ["url": "\(origin)", "variants": "\(variants.count) of \(playlist.variants.count)",
                           "renditions": "\(renditions.count) of \(playlist.renditions.count)"])
        }
    }

    /// Whether the origin's last request failed for want of a connection or an answer in time,
    /// waiting a little for a revalidation in flight to tell.
    private func originUnreachable(_ origin: OriginURL) async -> Bool {
        let breakers = environment.upstream.breakers
        let key = environment.store.key(for: origin.string)
        let deadline = ContinuousClock.now + Self.revalidationWait
        while !breakers.hasFailedSinceLastAnswer(origin.authority), environment.playlistFreshness.isRevalidating(key),
              ContinuousClock.now < deadline {
            // A short poll: this wait happens once per stale copy with uncached variants.
            try? await Task.sleep(for: .milliseconds(5))
        }
        return breakers.hasFailedSinceLastAnswer(origin.authority)
    }

    /// The variants, I-frame variants and renditions of `playlist` that can start from the cache.
    struct Selection {
        var variants: Set<Int> = []
        var iFrameVariants: Set<Int> = []
        var renditions: Set<Int> = []
        /// Whether everything the playlist lists can start.
        var isComplete = false
        var hasVariants: Bool { !variants.isEmpty }
    }

    func startable(in playlist: HLSPlaylist, base: HLSBaseURL) -> Selection {
        var selection = Selection()
        var startableGroups: [RenditionGroupKey: Bool] = [:]
        for (index, rendition) in playlist.renditions.enumerated() {
            // A rendition without a URI plays from its variant's own media.
            let canStart = rendition.uri.map { canStartMedia($0, base: base) } ?? true
            if canStart { selection.renditions.insert(index) }
            let group = RenditionGroupKey(type: rendition.type, groupID: rendition.groupID)
            startableGroups[group] = (startableGroups[group] ?? false) || canStart
        }
        for (index, variant) in playlist.variants.enumerated() {
            let audioStarts = variant.audio.map { startableGroups[RenditionGroupKey(type: "AUDIO", groupID: $0)] ?? true } ?? true
            if audioStarts && canStartMedia(variant.uri, base: base) { selection.variants.insert(index) }
        }
        for (index, variant) in playlist.iFrameVariants.enumerated() where canStartMedia(variant.uri, base: base) {
            selection.iFrameVariants.insert(index)
        }
        // A group none of whose renditions can start keeps them all: a variant naming a group
        // must find it, and one that needs it (AUDIO) was dropped above.
        for (index, rendition) in playlist.renditions.enumerated()
        where startableGroups[RenditionGroupKey(type: rendition.type, groupID: rendition.groupID)] == false {
            selection.renditions.insert(index)
        }
        selection.isComplete = selection.variants.count == playlist.variants.count
            && selection.iFrameVariants.count == playlist.iFrameVariants.count
            && playlist.renditions.indices.allSatisfy { selection.renditions.contains($0) }
        return selection
    }

    private struct RenditionGroupKey: Hashable {
        var type: String
        var groupID: String
    }

    /// Whether the media playlist at `uri` is cached whole, parses, and its first segment (with
    /// its init section) is cached.
    private func canStartMedia(_ uri: String, base: HLSBaseURL) -> Bool {
        let store = environment.store
        guard let origin = try? OriginURL(parsing: base.resolve(uri)),
              let cached = PlaylistCache(environment: environment).cached(store.key(for: origin.string)) else { return false }
        let url = environment.playlistFetches.finalURL(of: origin)
        guard let media = PlaylistCache.parse(cached.body, url: url), media.kind == .media else { return false }
        let timeline = SessionTimeline(playlist: media, url: url, playlistKey: store.key(for: origin.string),
                                       role: .main(audioGroup: nil), store: store)
        guard let first = timeline.segments.firstIndex(where: { $0.media != nil }) else { return false }
        return timeline.segments[first].prerequisites.allSatisfy { $0.isCached(in: store) } && timeline.isCached(first, store: store)
    }
}
