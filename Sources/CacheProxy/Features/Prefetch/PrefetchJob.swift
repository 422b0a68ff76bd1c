import CacheProxyParsing
import CacheStore
import HLS
import SparseFile
import Synchronization

/// Warms the start of one video within a budget: for HLS, one variant's playlist, init
/// sections and keys, then its first segments; for a plain file (MP4), its first bytes and,
/// when the `moov` box sits at the end, the tail that holds it. Every fetch goes through the
/// segment lane; before each one the job waits while the origin's circuit breaker is open and
/// stops when the cache is near its size limit.
final class PrefetchJob: Sendable {
    let environment: FetchEnvironment
    let origin: OriginURL
    let budget: PrefetchRequest.Budget
    let variant: PrefetchRequest.VariantChoice
    /// The fields its origin requests carry (the item's over the request's).
    let headers: OriginHeaderFields
    /// Bytes fetched so far, readable while the job runs.
    let spent = Atomic<UInt64>(0)
    /// Set when the job left the list: it starts no new resource.
    private let stopping = Atomic<Bool>(false)
    /// Its place in the app's list (0: the next video): the next video's start goes first.
    let rank = FetchRank()
    /// The place its start holds among the link's fetches (``LinkScheduler/holdPlace(_:)``),
    /// 0 once the start has ended.
    private let startPlace = Atomic<UInt64>(0)

    init(environment: FetchEnvironment, origin: OriginURL, budget: PrefetchRequest.Budget, variant: PrefetchRequest.VariantChoice,
         headers: OriginHeaderFields = OriginHeaderFields()) {
        self.environment = environment
        self.origin = origin
        self.budget = budget
        self.variant = variant
        self.headers = headers
    }

    /// Tries per resource: a transfer cut while paused is taken up again from where it stopped.
    static let attempts = 3
    /// Stop prefetching once the cache would pass this share of its limit.
    static let storeFillLimit = 0.9
    /// What the first request of a plain file asks for: enough for the box headers of most MP4s.
    static let probeLength: UInt64 = 64 * 1024
    /// Average bytes per second assumed for a file whose duration is unknown (1.6 Mbit/s).
    static let assumedBytesPerSecond: Double = 200_000
    /// How many seconds a segment of a `segments` budget stands for in a plain file.
    static let secondsPerSegment: Double = 6

    /// The start buffer of a video is what the user waits for at the next swipe; the rest of
    /// the budget is deeper buffering, behind a playing player's next segments.
    private func warmer(_ urgency: FetchUrgency = .ahead) -> ResourceWarmer {
        ResourceWarmer(environment: environment, lane: .segment, urgency: urgency, rank: rank, headers: headers)
    }

    /// Runs the job; returns a note about what it left out, if anything.
    func run() async throws -> String? {
        let place = FetchOwnership(urgency: .ahead, rank: rank, preemptible: true, withdrawable: true)
        startPlace.store(environment.upstream.scheduler.holdPlace(place), ordering: .relaxed)
        defer { endStart() }
        if PlaylistDetection.hasPlaylistExtension(origin) { return try await warmPresentation(origin) }
        #if DASH
        if PlaylistDetection.hasDASHExtension(origin) { return try await warmDASHPresentation(origin) }
        #endif
        return try await warmFile()
    }

    // MARK: HLS

    private func warmPresentation(_ url: OriginURL) async throws -> String? {
        let first = try await fetchPlaylist(url)
        var playlists: [OriginURL] = []
        if first.playlist.kind == .master {
            guard let chosen = HLSWarmPlan.variant(of: first.playlist, choosing: variant),
                  let base = HLSBaseURL(first.url), let variantOrigin = try? OriginURL(parsing: base.resolve(chosen.uri)) else {
                throw UpstreamError(.invalidResponse, "\(url): the multivariant playlist has no variant to warm")
            }
            playlists.append(variantOrigin)
            for rendition in HLSWarmPlan.renditions(for: chosen, in: first.playlist) {
                if let uri = rendition.uri, let renditionOrigin = try? OriginURL(parsing: base.resolve(uri)) {
                    playlists.append(renditionOrigin)
                }
            }
        }
        var notes: [String] = []
        let mediaPlaylists = playlists.isEmpty ? [first] : try await fetchAll(playlists)
        for media in mediaPlaylists {
            guard !media.playlist.isLive else {
                notes.append("\(media.url) is live: only its playlist was fetched")
                continue
            }
            var seconds = 0.0
            for item in HLSWarmPlan.items(of: media.playlist, url: media.url, budget: budget) {
                let urgency: FetchUrgency = seconds < PlaylistResponder.startSeconds ? .ahead : .deep
                try await fetch(item.origin, range: item.range, size: item.knownBytes, urgency: urgency)
                if case .segment(let duration) = item.kind { seconds += max(0, duration) }
            }
        }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }

    private func fetchAll(_ origins: [OriginURL]) async throws -> [ResourceWarmer.FetchedPlaylist] {
        var fetched: [ResourceWarmer.FetchedPlaylist] = []
        for origin in origins { fetched.append(try await fetchPlaylist(origin)) }
        return fetched
    }

    /// The video's start is fetched (or the job ends): the jobs after it may fetch theirs.
    private func endStart() {
        let place = startPlace.exchange(0, ordering: .relaxed)
        if place != 0 { environment.upstream.scheduler.releasePlace(place) }
    }

    /// The job left the list: the resource in flight is finished, nothing more is started.
    func stopAfterCurrentResource() {
        stopping.store(true, ordering: .relaxed)
        rank.withdraw()
    }

    func checkStillListed() throws {
        if stopping.load(ordering: .relaxed) { throw CancellationError() }
    }

    private func fetchPlaylist(_ url: OriginURL) async throws -> ResourceWarmer.FetchedPlaylist {
        try checkStillListed()
        try await admit(estimate: nil)
        let fetched = try await warmer().playlist(url)
        spent.add(fetched.fetchedBytes, ordering: .relaxed)
        environment.metrics?.recordPrefetched(fetched.fetchedBytes)
        return fetched
    }

    // MARK: Plain files

    private func warmFile() async throws -> String? {
        let key = environment.store.key(for: origin.string)
        let probe = ByteRange(offset: 0, length: min(Self.probeLength, remainingBytes ?? Self.probeLength))
        try await fetch(origin, range: probe, size: probe?.length)
        let reader = environment.store.reader(for: key)
        guard let file = reader.file, let probe, case .bytes(let head) = try file.read(probe.clamped(to: file.contentLength)) else {
            return nil
        }
        if file.metadata.isPlaylist || HLSPlaylist.looksLikePlaylist(head) {
            return try await warmPresentation(origin)
        }
        let length = file.contentLength
        let layout = MP4BoxLayout(scanning: head, fileLength: length)
        var duration: Double?
        var headLimit = length ?? UInt64.max
        if let moov = layout.moov, let size = moov.size, let range = ByteRange(offset: moov.offset, length: size) {
            try await fetch(origin, range: range, size: size)
            duration = try read(range, of: file).flatMap(MP4BoxLayout.duration(inMovieBox:))
        } else if let tailStart = layout.nextBoxOffset, let length, tailStart < length, let tail = ByteRange(from: tailStart, to: length) {
            // The index is at the end, after the media data: a player reads it before anything.
            try await fetch(origin, range: tail, size: tail.length)
            headLimit = tailStart
            if let bytes = try read(tail, of: file), let moov = MP4BoxLayout(scanning: bytes, at: tailStart, fileLength: length).moov,
               let size = moov.size, let moovRange = ByteRange(offset: moov.offset, length: size) {
                duration = try read(moovRange, of: file).flatMap(MP4BoxLayout.duration(inMovieBox:))
            }
        }
        var headEnd: UInt64
        switch budget {
        case .bytes: headEnd = probe.end + (remainingBytes ?? 0)
        case .seconds(let seconds): headEnd = Self.bytes(for: seconds, length: length, duration: duration)
        case .segments(let segments): headEnd = Self.bytes(for: Double(segments) * Self.secondsPerSegment, length: length, duration: duration)
        }
        headEnd = min(headEnd, headLimit)
        if headEnd > probe.end, let rest = ByteRange(from: probe.end, to: headEnd) {
            try await fetch(origin, range: rest, size: rest.length)
        }
        return nil
    }

    private static func bytes(for seconds: Double, length: UInt64?, duration: Double?) -> UInt64 {
        var perSecond = assumedBytesPerSecond
        if let length, let duration, duration > 0 { perSecond = Double(length) / duration }
        return UInt64(min(Double(UInt64.max / 2), (seconds * perSecond).rounded(.up)))
    }

    func read(_ range: ByteRange, of file: SparseFile) throws -> [UInt8]? {
        guard case .bytes(let bytes) = try file.read(range) else { return nil }
        return bytes
    }

    // MARK: Fetching within the budget

    /// The bytes left of a bytes budget; nil for other budgets.
    private var remainingBytes: UInt64? {
        guard case .bytes(let total) = budget else { return nil }
        let used = spent.load(ordering: .relaxed)
        return total > used ? total - used : 0
    }

    /// Fetches `range` of `origin` (all of it when nil) within the budget. A bytes budget skips
    /// a resource whose `size` is known to be larger than the bytes left, and cuts one of
    /// unknown size at them (the last resource of a prefetch may be partial; playing it fetches
    /// the rest).
    func fetch(_ origin: OriginURL, range: ByteRange?, size: UInt64?, urgency: FetchUrgency = .ahead) async throws {
        try checkStillListed()
        var range = range
        if let remaining = remainingBytes {
            guard remaining > 0 else { throw PrefetchStop(reason: .budgetSpent) }
            if let size, size > remaining { throw PrefetchStop(reason: .budgetSpent) }
            if size == nil {
                let start = range?.offset ?? 0
                range = ByteRange(offset: start, length: min(range?.length ?? UInt64.max - start, remaining))
            }
        }
        if urgency != .ahead { endStart() }
        try await admit(estimate: size)
        // A prefetch pauses while players need the link, and a pause longer than the origin's
        // read timeout ends its transfer: the gap is fetched again, not the video given up.
        let fetched = try await warmer(urgency).bytes(origin, range: range, attempts: Self.attempts)
        spent.add(fetched, ordering: .relaxed)
        environment.metrics?.recordPrefetched(fetched)
    }

    /// Waits while the origin's breaker is open; stops when the cache is near its limit.
    func admit(estimate: UInt64?) async throws {
        while environment.upstream.breakers.isOpen(origin.authority) {
            try await Task.sleep(for: .milliseconds(250))
        }
        let store = environment.store
        let ceiling = UInt64(Double(store.maximumSize) * Self.storeFillLimit)
        if store.totalBytes + (estimate ?? 0) > ceiling { throw PrefetchStop(reason: .storeNearLimit) }
    }
}

extension ByteRange {
    /// The part of the range below `length`, when the length is known.
    func clamped(to length: UInt64?) -> ByteRange {
        guard let length, end > length else { return self }
        return ByteRange(from: offset, to: max(offset, length)) ?? self
    }
}
