/// URI rewriting.
extension HLSPlaylist {
    /// The playlist with every URI it holds mapped through `policy`, and every other byte as it
    /// was: segments, parts, preload hints, keys, maps, renditions, variants (both kinds),
    /// session keys and data, rendition reports and the steering server, after EXT-X-DEFINE
    /// substitution and resolution against `base`.
    ///
    /// URIs that do not resolve to http or https (`skd:`, `data:`) stay as written, and so do
    /// lines the parser found to belong to nothing (players ignore them; rewriting would make
    /// junk fetchable). Rewritten URIs are escaped so that no byte can end the line or the
    /// quoted string they stand in.
    public func rewritten(base: HLSBaseURL, policy: any HLSRewritePolicy) -> [UInt8] {
        PlaylistRewriter(playlist: self, base: base, policy: policy).rewrite()
    }
}
