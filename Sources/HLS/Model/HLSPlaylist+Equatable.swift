/// Model equality: two playlists are equal when everything the model exposes is equal. Their
/// bytes, line numbers and warnings are not compared, so a playlist equals its canonical form.
extension HLSPlaylist: Equatable {
    public static func == (lhs: HLSPlaylist, rhs: HLSPlaylist) -> Bool {
        lhs.kind == rhs.kind && lhs.version == rhs.version && lhs.independentSegments == rhs.independentSegments
            && lhs.start == rhs.start && lhs.variables == rhs.variables && lhs.unknownTags == rhs.unknownTags
            && lhs.comments == rhs.comments
            && lhs.targetDuration == rhs.targetDuration && lhs.mediaSequence == rhs.mediaSequence
            && lhs.discontinuitySequence == rhs.discontinuitySequence && lhs.endList == rhs.endList
            && lhs.playlistType == rhs.playlistType && lhs.iFramesOnly == rhs.iFramesOnly
            && lhs.segments == rhs.segments && lhs.maps == rhs.maps && lhs.keys == rhs.keys
            && lhs.parts == rhs.parts && lhs.preloadHints == rhs.preloadHints
            && lhs.renditionReports == rhs.renditionReports && lhs.dateRanges == rhs.dateRanges
            && lhs.serverControl == rhs.serverControl && lhs.partTarget == rhs.partTarget && lhs.skip == rhs.skip
            && lhs.variants == rhs.variants && lhs.iFrameVariants == rhs.iFrameVariants
            && lhs.renditions == rhs.renditions && lhs.sessionData == rhs.sessionData
            && lhs.sessionKeys == rhs.sessionKeys && lhs.contentSteering == rhs.contentSteering
    }
}
