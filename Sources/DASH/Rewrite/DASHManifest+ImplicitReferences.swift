extension DASHManifest {
    /// Whether a Representation makes a request whose URL is its base itself, with no `BaseURL`
    /// below the MPD level to make it anything but the MPD's own URL: a SegmentBase (its file is
    /// the base), a SegmentURL without `@media`, an Initialization or RepresentationIndex without
    /// `@sourceURL`, or no segment information at all (the Representation is its base). Such a
    /// reference has no attribute to rewrite, so an MPD served elsewhere must keep its own URL
    /// as its base; any other may take its directory, which is what players that join BaseURLs
    /// by appending (ffmpeg) need.
    var hasImplicitReferenceToItsOwnURL: Bool {
        representations.contains { representation in
            guard representation.baseURLs.isEmpty, representation.adaptationSet.baseURLs.isEmpty,
                  representation.period.baseURLs.isEmpty else { return false }
            switch representation.segmentInformation {
            case nil, .base?:
                return true
            case .list(let list)?:
                return list.segmentURLs.contains { $0.media == nil } || (list.initialization.map { $0.sourceURL == nil } ?? false)
            case .template?:
                return false
            }
        }
    }
}
