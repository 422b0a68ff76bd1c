import HLS

// The rewrites a playback session applies to the playlists it serves (CacheProxy's
// SessionOpener and SessionPlaylistResponder), on arbitrary parsed input:
// - a multivariant playlist locked to the variant each quality rule picks (lowest, highest, a
//   bandwidth, a height, each with and without a maximum bandwidth), then rewritten with a
//   maximum bandwidth alone, and with a bandwidth override;
// - a media playlist served head-only, and hidden until buffered: the EVENT playlist of a
//   random buffered prefix, rewritten as the session serves it;
// - a virtual playlist of 1 to 4 parts: the input split before each later `#EXTM3U` line, or
//   the input joined with itself when it holds one playlist.
// The choices (which bandwidth, height, prefix and copy count) come from a hash of the input,
// so that every mutation tries other ones.
//
// What must hold: every output parses, strictly when its input parsed strictly; a locked
// multivariant playlist lists exactly one variant and no I-frame variant; under a maximum
// bandwidth no variant is above it but the lowest (kept when all are); an override is every
// variant's BANDWIDTH; a hidden playlist lists a prefix of the segments and ends only when it
// lists them all; a virtual playlist has the sum of its parts' segments, each part's segments
// last as long as the part, and the total is the sum of the parts'.

private let endpoint = HLSProxyEndpoint(port: 8080)
private let proxyPrefix = endpoint.url(for: "")
private let playlistURL = "https://origin.example/a/b/index.m3u8?token=t"
private let partURLs = (0..<4).compactMap { HLSBaseURL("https://cdn\($0).example/show/\($0)/index.m3u8") }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHLSSession(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, let base = HLSBaseURL(playlistURL) else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    var choices = Choices(bytes)
    let options = HLSParserOptions(playlistURL: playlistURL, importedVariables: ["host": "https://cdn.example"])
    guard let playlist = try? HLSPlaylist(parsing: bytes, options: options) else { return 0 }
    let strict = parsesStrictly(bytes, options: options)
    let session = Session(base: base, options: options, strict: strict)
    switch playlist.kind {
    case .master:
        session.checkMultivariant(playlist, choices: &choices)
    case .media:
        session.checkMedia(playlist, choices: &choices)
        checkVirtual(bytes, options: options, choices: &choices)
    }
    return 0
}

/// Small numbers drawn from the input's hash (FNV-1a, then xorshift).
private struct Choices {
    var state: UInt64

    init(_ bytes: [UInt8]) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        state = hash | 1
    }

    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    /// A number in `0..<bound` (`bound` above 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

private func parsesStrictly(_ bytes: [UInt8], options: HLSParserOptions) -> Bool {
    var strictOptions = options
    strictOptions.mode = .strict
    return (try? HLSPlaylist(parsing: bytes, options: strictOptions)) != nil
}

/// Parses an output, which must parse (strictly when its input did); URIs through the proxy
/// grow, so the limits on line and input size are lifted. A rewrite that drops lines (variants)
/// from a playlist only lenient mode reads may leave one that does not parse at all (a stray
/// URI line first, once the lines before it are gone): that output is nil when not `mustParse`.
private func reparse(_ output: [UInt8], options: HLSParserOptions, strict: Bool, mustParse: Bool = true,
                     _ what: String) -> HLSPlaylist? {
    var relaxed = options
    relaxed.limits.maximumInputBytes = Int(Int32.max)
    relaxed.limits.maximumLineBytes = Int(Int32.max)
    let parsed: HLSPlaylist
    do {
        parsed = try HLSPlaylist(parsing: output, options: relaxed)
    } catch {
        if !mustParse && !strict { return nil }
        preconditionFailure("\(what): the output does not parse: \(error)")
    }
    if strict {
        relaxed.mode = .strict
        do {
            _ = try HLSPlaylist(parsing: output, options: relaxed)
        } catch {
            preconditionFailure("\(what): the input parsed strictly, the output does not: \(error)")
        }
    }
    return parsed
}

private struct Session {
    let base: HLSBaseURL
    let options: HLSParserOptions
    let strict: Bool

    /// The rewritten playlist, parsed; nil only when `policy` drops variants from a playlist that
    /// parsed leniently and what is left does not parse.
    func rewrite(_ playlist: HLSPlaylist, _ policy: HLSProxyRewritePolicy, _ what: String) -> HLSPlaylist? {
        let drops = policy.lockedVariant != nil || policy.maximumBandwidth != nil
        return reparse(playlist.rewritten(base: base, policy: policy), options: options, strict: strict, mustParse: !drops, what)
    }

    func checkMultivariant(_ playlist: HLSPlaylist, choices: inout Choices) {
        // A session neither hides nor joins a multivariant playlist: both refuse it.
        do {
            _ = try playlist.eventPlaylist(listingFirst: 0)
            preconditionFailure("a multivariant playlist hidden until buffered")
        } catch {
            precondition(error.code == .multivariant && !error.description.isEmpty, "hiding a multivariant playlist: \(error)")
        }
        do {
            _ = try HLSVirtualPlaylist(joining: [HLSVirtualPlaylist.Part(playlist: playlist, url: base)])
            preconditionFailure("a multivariant playlist joined")
        } catch {
            precondition(error.code == .multivariant && error.partIndex == 0, "joining a multivariant playlist: \(error)")
        }
        let summaries = playlist.variantSummaries
        let streams = summaries.filter { !$0.isIFrameOnly }
        let bandwidths = streams.map { $0.bandwidth ?? 0 }
        // A maximum near a listed bandwidth (on it, or one below), or any.
        let maximum: UInt64 = bandwidths.isEmpty || choices.below(4) == 0
            ? choices.next() >> choices.below(64)
            : bandwidths[choices.below(bandwidths.count)] &- UInt64(choices.below(2))
        let target = bandwidths.isEmpty ? choices.next() >> 40 : bandwidths[choices.below(bandwidths.count)] &+ UInt64(choices.below(3)) &- 1
        let qualities: [HLSQuality] = [.lowest, .highest, .bandwidth(target), .height(1 + choices.below(2160))]
        for quality in qualities {
            for limit in [nil, maximum] {
                checkLock(playlist, quality: quality, maximumBandwidth: limit, streams: streams)
            }
        }
        checkMaximum(playlist, maximum: maximum, streams: streams)
        // A maximum bandwidth is a `keepVariant` of the bandwidths within it: the same bytes.
        var kept = HLSProxyRewritePolicy(endpoint: endpoint)
        kept.keepVariant = { ($0.bandwidth ?? 0) <= maximum }
        precondition(playlist.rewritten(base: base, policy: kept)
                     == playlist.rewritten(base: base, policy: HLSProxyRewritePolicy(endpoint: endpoint, maximumBandwidth: maximum)),
                     "keepVariant and maximumBandwidth disagree about \(maximum)")
        let override = 1 + UInt64(choices.below(50_000_000))
        var policy = HLSProxyRewritePolicy(endpoint: endpoint, headSegmentCount: 1 + choices.below(3))
        policy.bandwidthOverride = { _ in override }
        guard let overridden = rewrite(playlist, policy, "bandwidth override") else { return }
        precondition(overridden.variants.count == playlist.variants.count, "an override dropped a variant")
        precondition(overridden.iFrameVariants.count == playlist.iFrameVariants.count, "an override dropped an I-frame variant")
        // The override adds BANDWIDTH where it is missing; to an attribute list lenient mode
        // could not read, it may add one that cannot be read either.
        let pairs = zip(overridden.variants + overridden.iFrameVariants, playlist.variants + playlist.iFrameVariants)
        for (variant, original) in pairs where strict || original.bandwidth != nil {
            precondition(variant.bandwidth == override, "a BANDWIDTH of \(String(describing: variant.bandwidth)), not the override \(override)")
            precondition(variant.averageBandwidth == nil || variant.averageBandwidth == override, "an AVERAGE-BANDWIDTH not overridden")
        }
    }

    /// A session locked to the variant `quality` picks serves it alone.
    func checkLock(_ playlist: HLSPlaylist, quality: HLSQuality, maximumBandwidth: UInt64?, streams: [HLSVariantSummary]) {
        guard let chosen = playlist.variant(for: quality, maximumBandwidth: maximumBandwidth) else {
            precondition(streams.isEmpty, "\(quality) chose nothing among \(streams.count) variants")
            return
        }
        precondition(!chosen.isIFrameOnly && streams.contains(chosen), "\(quality) chose a variant not listed")
        if let maximumBandwidth, (chosen.bandwidth ?? 0) > maximumBandwidth {
            let lowest = streams.map { $0.bandwidth ?? 0 }.min() ?? 0
            precondition(lowest > maximumBandwidth && chosen.bandwidth ?? 0 == lowest,
                         "\(quality) chose a variant above the maximum that is not the lowest")
        }
        var policy = HLSProxyRewritePolicy(endpoint: endpoint, maximumBandwidth: maximumBandwidth)
        policy.lock(to: chosen)
        guard let locked = rewrite(playlist, policy, "locked to \(quality)") else { return }
        precondition(locked.iFrameVariants.isEmpty, "a locked playlist lists I-frame variants")
        let kept = playlist.variants[chosen.index].bandwidth
        guard strict else {
            // Lenient mode reads an EXT-X-STREAM-INF without a URI line as no variant, and a URI
            // line after no EXT-X-STREAM-INF as none either; dropping the lines between two
            // such lines joins them into a variant. So only: the chosen variant is listed.
            precondition(locked.variants.contains { $0.bandwidth == kept }, "the lock dropped the chosen variant")
            return
        }
        precondition(locked.variants.count == 1, "a locked playlist lists \(locked.variants.count) variants: \(text(locked.bytes))")
        precondition(locked.variants[0].bandwidth == kept, "the lock kept another variant")
    }

    /// No variant above the maximum but the lowest, kept when every one is above it.
    func checkMaximum(_ playlist: HLSPlaylist, maximum: UInt64, streams: [HLSVariantSummary]) {
        let policy = HLSProxyRewritePolicy(endpoint: endpoint, maximumBandwidth: maximum)
        guard let capped = rewrite(playlist, policy, "maximum bandwidth \(maximum)") else { return }
        precondition(capped.iFrameVariants.allSatisfy { ($0.bandwidth ?? 0) <= maximum }, "an I-frame variant above the maximum")
        precondition(capped.variants.isEmpty == streams.isEmpty, "a maximum bandwidth left no variant")
        // As in checkLock: lenient mode may join an orphan EXT-X-STREAM-INF and a stray URI line.
        guard strict else { return }
        let lowest = streams.map { $0.bandwidth ?? 0 }.min()
        let above = capped.variants.filter { ($0.bandwidth ?? 0) > maximum }
        if let lowest, lowest > maximum {
            precondition(capped.variants.count == 1 && capped.variants[0].bandwidth ?? 0 == lowest,
                         "every variant is above the maximum, and the lowest alone is not kept")
        } else {
            precondition(above.isEmpty, "a variant above the maximum bandwidth \(maximum)")
            precondition(capped.variants.count == streams.filter { ($0.bandwidth ?? 0) <= maximum }.count,
                         "a variant within the maximum was dropped")
        }
    }

    /// Where a session is: every segment is found again from the URI the rewrite gives it (at
    /// its own byte offset, after the one before it), and the timeline puts a segment's start in
    /// that segment and covers a buffer window with the fewest segments.
    func checkPosition(_ playlist: HLSPlaylist, choices: inout Choices) {
        let timeline = HLSTimeline(playlist)
        precondition(timeline.count == playlist.segments.count, "a timeline of \(timeline.count) segments for \(playlist.segments.count)")
        let locator = HLSSegmentLocator(playlist, base: base)
        for (index, segment) in playlist.segments.enumerated().prefix(256) {
            let uri = base.resolve(segment.uri)
            let found = locator.segmentIndex(for: uri, byteOffset: segment.byteRange?.offset, after: index - 1)
            if segment.byteRange.map({ $0.length > 0 }) ?? true {
                precondition(found == index, "segment \(index) located at \(String(describing: found))")
            } else if let found {
                precondition(base.resolve(playlist.segments[found].uri) == uri, "a segment located under another URI")
            }
        }
        guard timeline.count > 0 else { return }
        let index = choices.below(timeline.count)
        precondition(timeline.duration(ofSegment: index) == timeline.duration(of: index..<(index + 1)), "segment \(index)'s duration")
        let start = timeline.startTime(ofSegment: index)
        let tolerance = 1e-6 * max(1, start)
        if let playing = timeline.segment(at: start) {
            precondition(abs(timeline.startTime(ofSegment: playing) - start) <= tolerance && playing >= index - 1,
                         "segment \(index) starts at \(start) s, where segment \(playing) plays")
        } else {
            precondition(start >= timeline.totalDuration - tolerance, "no segment plays at \(start) s, before the end")
        }
        let seconds = Double(choices.below(120_000)) / 1000
        let window = timeline.segments(from: index, covering: seconds)
        precondition(window.lowerBound == index && window.upperBound <= timeline.count, "a window \(window) from \(index)")
        let covered = timeline.duration(of: window)
        if window.upperBound < timeline.count {
            precondition(covered >= seconds - 1e-6 * max(1, seconds), "a window of \(covered) s for \(seconds) s")
        }
        if window.count > 1 {
            let shorter = timeline.duration(of: window.lowerBound..<(window.upperBound - 1))
            precondition(shorter < seconds + 1e-6 * max(1, seconds), "a window longer than it needs to be")
        }
    }

    func checkMedia(_ playlist: HLSPlaylist, choices: inout Choices) {
        checkPosition(playlist, choices: &choices)
        let head = choices.below(playlist.segments.count + 2)
        guard let served = rewrite(playlist, HLSProxyRewritePolicy(endpoint: endpoint, headSegmentCount: head), "head-only") else { return }
        precondition(served.segments.count == playlist.segments.count, "head-only caching changed the segments")
        for (index, (segment, original)) in zip(served.segments, playlist.segments).enumerated() {
            // URIs of other schemes than http(s) stay as written; past the head a segment keeps
            // its origin URI, which may itself name the proxy.
            let resolved = base.resolve(original.uri)
            let lowercased = resolved.prefix(8).lowercased()
            let isHTTP = lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://")
            let proxied = segment.uri.hasPrefix(proxyPrefix)
            precondition(index < head ? proxied || !isHTTP : !proxied || resolved.hasPrefix(proxyPrefix),
                         "segment \(index) \(proxied ? "through" : "past") the proxy with a head of \(head)")
        }
        guard !playlist.isLive else {
            precondition((try? playlist.eventPlaylist(listingFirst: 0)) == nil, "a live playlist hidden until buffered")
            return
        }
        let buffered = choices.below(playlist.segments.count + 2)
        let hidden: [UInt8]
        do {
            hidden = try playlist.eventPlaylist(listingFirst: buffered)
        } catch {
            preconditionFailure("a VOD media playlist cannot be hidden until buffered: \(error)")
        }
        guard let growing = reparse(hidden, options: options, strict: strict, "hidden until \(buffered) buffered") else { return }
        let listed = min(buffered, playlist.segments.count)
        precondition(growing.segments.count == listed, "\(growing.segments.count) segments listed with \(buffered) buffered")
        for (shown, original) in zip(growing.segments, playlist.segments) {
            precondition(shown.uri == original.uri && shown.duration == original.duration, "a hidden playlist changed a segment")
        }
        // A lenient media playlist with multivariant tags (EXT-X-MEDIA) before its segments reads
        // as a multivariant playlist once none is listed.
        precondition(growing.kind == .media || (!strict && listed == 0), "a hidden playlist is not a media playlist")
        if growing.kind == .media {
            precondition(growing.isLive == (listed < playlist.segments.count),
                         "a hidden playlist listing \(listed) of \(playlist.segments.count) segments \(growing.isLive ? "does not end" : "ends")")
        }
        // As the session serves it: the growing playlist, rewritten.
        guard let rewritten = reparse(growing.rewritten(base: base, policy: HLSProxyRewritePolicy(endpoint: endpoint, headSegmentCount: head)),
                                      options: options, strict: strict, "hidden, then rewritten") else { return }
        precondition(rewritten.segments.count == listed, "rewriting a hidden playlist changed its segments")
    }
}

/// The input as the parts of a virtual playlist: split before each later `#EXTM3U` line (up to
/// four parts), or the one playlist it holds joined with itself 1 to 4 times.
private func checkVirtual(_ bytes: [UInt8], options: HLSParserOptions, choices: inout Choices) {
    var pieces = split(bytes, maximum: 4)
    if pieces.count == 1 { pieces = Array(repeating: pieces[0], count: 1 + choices.below(4)) }
    var parts: [HLSVirtualPlaylist.Part] = []
    var strict = true
    for (index, piece) in pieces.enumerated() {
        let partOptions = HLSParserOptions(playlistURL: partURLs[index].description)
        guard let playlist = try? HLSPlaylist(parsing: piece, options: partOptions) else { return }
        strict = strict && parsesStrictly(piece, options: partOptions)
        parts.append(HLSVirtualPlaylist.Part(playlist: playlist, url: partURLs[index]))
    }
    let joined: HLSVirtualPlaylist
    do {
        joined = try HLSVirtualPlaylist(joining: parts)
    } catch {
        precondition(error.partIndex.map { $0 >= 0 && $0 < parts.count } ?? true, "a join error about part \(String(describing: error.partIndex))")
        precondition(!error.description.isEmpty && !error.description.contains("\n"), "a join error of more than one line")
        return
    }
    _ = reparse(joined.bytes, options: HLSParserOptions(), strict: strict, "virtual playlist")
    let timelines = parts.map { HLSTimeline($0.playlist) }
    let total = timelines.reduce(0) { $0 + $1.count }
    precondition(joined.playlist.segments.count == total && joined.timeline.count == total,
                 "a virtual playlist of \(joined.timeline.count) segments from parts of \(total)")
    precondition(joined.partStarts.count == parts.count, "a part start per part")
    var seconds = 0.0
    for (index, timeline) in timelines.enumerated() {
        let start = joined.partStarts[index]
        let range = start..<(start + timeline.count)
        // Timelines add nanoseconds and saturate at 2^64-1 (584 years): from a billion seconds
        // into the joined playlist on, only the segment counts are compared.
        precondition(seconds + timeline.totalDuration > 1e9 || joined.timeline.duration(of: range) == timeline.totalDuration,
                     "part \(index) lasts another time joined")
        if !range.isEmpty {
            let (part, segment) = joined.part(containingSegment: range.lowerBound)
            precondition(part == index && segment == 0, "segment \(range.lowerBound) is not part \(index)'s first")
        }
        seconds += timeline.totalDuration
    }
    let difference = abs(joined.timeline.totalDuration - seconds)
    precondition(seconds > 1e9 || difference <= 1e-9 * max(1, seconds), "a virtual playlist of \(joined.timeline.totalDuration) s from parts of \(seconds) s")
}

/// `bytes` cut before each line that starts with `#EXTM3U` after the first, into at most
/// `maximum` pieces (the last holds the rest).
private func split(_ bytes: [UInt8], maximum: Int) -> [[UInt8]] {
    let header = Array("#EXTM3U".utf8)
    var cuts: [Int] = []
    var index = 1
    while index + header.count <= bytes.count && cuts.count < maximum - 1 {
        if bytes[index - 1] == 0x0A && bytes[index..<(index + header.count)].elementsEqual(header) { cuts.append(index) }
        index += 1
    }
    var pieces: [[UInt8]] = []
    var previous = 0
    for cut in cuts + [bytes.count] {
        pieces.append(Array(bytes[previous..<cut]))
        previous = cut
    }
    return pieces
}

/// An output for a failure message: its first 2,000 bytes, escaped.
private func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.prefix(2000), as: UTF8.self).debugDescription
}
