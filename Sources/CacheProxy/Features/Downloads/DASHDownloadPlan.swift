#if DASH
import CacheProxyParsing
import DASH
import SparseFile

/// What downloading a DASH presentation fetches, chosen from its MPD: in every Period, per
/// AdaptationSet the chosen Representation (or every one), and of each its init section, its
/// `sidx` (SegmentBase), every segment, and for byte-range addressing the rest of each file.
///
/// The MPD is untrusted: it may list more segments than any presentation has (a huge `@r`, a
/// tiny `@duration`), so the listing is bounded by a count for the whole download, and an MPD
/// the proxy would refuse to serve is refused before anything is fetched for it.
enum DASHDownloadPlan {
    /// The Representations to download: per AdaptationSet of every Period, the one `choice`
    /// picks (by `@bandwidth` or `@height`, as prefetching picks), or all of them.
    static func representations(of manifest: DASHManifest, choosing choice: PrefetchRequest.VariantChoice,
                                all: Bool) -> [DASHRepresentation] {
        all ? manifest.representations : manifest.periods.flatMap { DASHWarmPlan.representations(of: $0, choosing: choice) }
    }

    /// Refuses an MPD that is live (it never ends) or that the proxy could not serve afterwards
    /// (the rewriter refuses remote elements and URLs without a path form): its download would
    /// be bytes nothing plays.
    static func check(_ manifest: DASHManifest, manifestURL: DASHAbsoluteURL, origin: OriginURL) throws(DownloadError) {
        guard manifest.type == .static else {
            throw DownloadError(code: .live, message: "\(origin) is a dynamic MPD: a live presentation never ends, so it cannot be downloaded whole",
                                failures: [])
        }
        do {
            // Any endpoint will do: what is refused does not depend on the proxy's address.
            _ = try manifest.rewritten(manifestURL: manifestURL, policy: DASHProxyRewritePolicy(endpoint: DASHProxyEndpoint(port: 8080)))
        } catch {
            throw DownloadError(code: .unplayable, message: "\(origin) cannot be played through the proxy (\(error.code)): \(error)",
                                failures: [])
        }
    }

    /// What to fetch of one Representation.
    struct Resources {
        /// In playback order: init section, then every segment (at most `maximumSegments`),
        /// then for each file addressed by byte ranges the whole file, so that a player reading
        /// it with other ranges (a whole-file request, an `mfra` at the end) finds every byte
        /// offline. The warmer fetches only what the ranges before left out.
        var items: [HLSWarmPlan.Item] = []
        /// The segment one past the last the MPD lists, which some players read
        /// (``trailingSegment(of:manifestURL:after:)``): fetched when the origin has it.
        var beyondTheEnd: HLSWarmPlan.Item?
    }

    /// The resources of `representation` (``Resources``).
    ///
    /// - Throws: `DownloadError.Code.tooManySegments` past `maximumSegments`,
    ///   `DownloadError.Code.unplayable` when the segments cannot be listed; both name the
    ///   element and its position.
    static func items(of representation: DASHRepresentation, manifestURL: DASHAbsoluteURL, index: DASHSegmentIndex?,
                      maximumSegments: Int, origin: OriginURL) throws(DownloadError) -> Resources {
        var limits = DASHParserLimits()
        limits.maximumSegmentsPerRepresentation = max(0, maximumSegments)
        let what = "\(origin), Representation \(representation.id ?? "#\(representation.ordinal)")"
        let initialization: DASHSegmentRequest?
        let segments: DASHSegmentRequests
        do {
            initialization = try representation.initializationRequest(manifestURL: manifestURL)
            segments = try representation.segmentRequests(manifestURL: manifestURL, index: index, limits: limits)
        } catch where error.code == .limitExceeded {
            throw DownloadError(code: .tooManySegments, message: "\(what) lists more segments than the download's limit of \(maximumSegments): \(error)",
                                failures: [])
        } catch {
            throw DownloadError(code: .unplayable, message: "\(what): its segments cannot be listed (\(error.code)): \(error)", failures: [])
        }
        var resources = Resources()
        var rangedFiles: [OriginURL] = []
        var seenFiles = Set<OriginURL>()
        func add(_ request: DASHSegmentRequest, kind: HLSWarmPlan.Item.Kind) {
            guard let (origin, range) = DASHWarmPlan.resource(of: request) else { return }
            resources.items.append(HLSWarmPlan.Item(origin: origin, range: range, kind: kind, knownBytes: range?.length))
            if range != nil, seenFiles.insert(origin).inserted { rangedFiles.append(origin) }
        }
        if let initialization { add(initialization, kind: .initSection) }
        var last: DASHSegmentRequest?
        for segment in segments {
            add(segment, kind: .segment(duration: segment.durationSeconds))
            last = segment
        }
        for file in rangedFiles { resources.items.append(HLSWarmPlan.Item(origin: file, range: nil, kind: .initSection, knownBytes: nil)) }
        resources.beyondTheEnd = trailingSegment(of: representation, manifestURL: manifestURL, after: last)
        return resources
    }

    /// For a SegmentTemplate numbered by `@duration` (no timeline, no `@endNumber`), the segment
    /// after the last one the MPD lists. ffmpeg's dash demuxer (5.1, and mpv through it) plays numbers
    /// `@startNumber` through `@startNumber` + duration / `@duration`, one past the last, and
    /// ffmpeg's muxer writes that segment when the audio runs past the video (its 6.0 s MPD of
    /// 2 s segments has a fourth audio segment): what the player read online is there offline.
    private static func trailingSegment(of representation: DASHRepresentation, manifestURL: DASHAbsoluteURL,
                                        after last: DASHSegmentRequest?) -> HLSWarmPlan.Item? {
        guard case .template(let template)? = representation.segmentInformation, template.timeline == nil, template.endNumber == nil,
              let media = template.media, let last, let number = last.number, number < UInt64.max,
              let parsed = try? DASHURLTemplate(media) else { return nil }
        let (time, overflow) = last.time.addingReportingOverflow(last.duration)
        guard !overflow else { return nil }
        let reference = parsed.expanded(representationID: representation.id, number: number + 1, time: time, bandwidth: representation.bandwidth)
        guard let origin = try? OriginURL(parsing: representation.baseURL(manifestURL: manifestURL).resolve(reference)) else { return nil }
        return HLSWarmPlan.Item(origin: origin, range: nil, kind: .segment(duration: 0), knownBytes: nil)
    }
}
#endif
